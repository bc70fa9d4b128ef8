import type { z } from 'zod'
import { type JsonSchema, toJsonSchema } from '../../jsonSchema.js'
import type { InputLocation } from '../inputLocation.js'
import type { Route } from '../route.js'

export interface Parameter {
  name: string
  in: Exclude<InputLocation, 'body'>
  required: boolean
  description?: string
  schema: JsonSchema
}

export interface RouteSchemas {
  parameters: Parameter[]
  body: JsonSchema | undefined
  output: JsonSchema
  /** Path, query and body fields merged into one object: a tool's input. */
  toolInput: JsonSchema
}

const cache = new WeakMap<Route, RouteSchemas>()

/** JSON Schema (2020-12, the dialect OpenAPI 3.1 uses) of a route's inputs and output, computed once. */
export function routeSchemas(route: Route): RouteSchemas {
  const hit = cache.get(route)
  if (hit) return hit
  const parameters = [
    ...parametersOf(route.input.params, 'path'),
    ...parametersOf(route.input.query, 'query'),
  ]
  const body = route.input.body ? toJsonSchema(route.input.body, 'input') : undefined
  const output = toJsonSchema(route.output, 'output')
  const result = { parameters, body, output, toolInput: toolInputOf(parameters, body) }
  cache.set(route, result)
  return result
}

function parametersOf(schema: z.ZodObject | undefined, location: 'path' | 'query'): Parameter[] {
  if (!schema) return []
  const json = toJsonSchema(schema, 'input')
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((json.required ?? []) as string[])
  return Object.entries(properties).map(([name, prop]) => {
    const { description, ...propSchema } = prop
    const parameter: Parameter = {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      schema: propSchema,
    }
    if (typeof description === 'string') parameter.description = description
    return parameter
  })
}

function toolInputOf(parameters: Parameter[], body: JsonSchema | undefined): JsonSchema {
  const properties: Record<string, JsonSchema> = {}
  const required: string[] = []
  for (const p of parameters) {
    properties[p.name] = p.description ? { ...p.schema, description: p.description } : p.schema
    if (p.required) required.push(p.name)
  }
  if (body) {
    Object.assign(properties, body.properties as Record<string, JsonSchema>)
    required.push(...((body.required ?? []) as string[]))
  }
  return { type: 'object', properties, required, additionalProperties: false }
}
