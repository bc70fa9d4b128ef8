import { readFileSync } from 'node:fs'
import SwaggerParser from '@apidevtools/swagger-parser'
import { Ajv, type ErrorObject } from 'ajv'
import addFormats from 'ajv-formats'
import type { OpenAPIV3 } from 'openapi-types'

/**
 * The vendored OpenAPI 3.0 contracts of our upstreams (test/fixtures/upstreams/<name>/), read the way an
 * upstream's own validator would: each response body against its operation's schema (OpenAPI's
 * `nullable` included), each request's query and headers against its operation's parameters.
 */
export async function loadContract(
  fixturePath: string,
  options: { notVendored?: readonly string[] } = {},
): Promise<OpenAPIV3.Document> {
  const file = new URL(`../fixtures/upstreams/${fixturePath}`, import.meta.url).pathname
  if (options.notVendored === undefined) return (await SwaggerParser.dereference(file)) as OpenAPIV3.Document
  // An excerpt leaves out schemas its operation reaches only through fields we never send or read (its
  // PROVENANCE.md names them): they stand as "anything" here.
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { components: { schemas: Record<string, object> } }
  for (const name of options.notVendored) doc.components.schemas[name] = {}
  return (await SwaggerParser.dereference(doc as never)) as OpenAPIV3.Document
}

export function operationOf(
  doc: OpenAPIV3.Document,
  method: 'get' | 'post',
  path: string,
): OpenAPIV3.OperationObject {
  const op = doc.paths[path]?.[method]
  if (op === undefined) throw new Error(`the contract has no ${method.toUpperCase()} ${path}`)
  return op
}

// OpenAPI 3.0 keeps `example`, `nullable` and `x-` keys beside JSON Schema's: not strict.
const ajv = new Ajv({ strict: false, allErrors: true })
addFormats.default(ajv)

/**
 * An OpenAPI 3.0 schema object as JSON Schema (draft-07): `nullable: true` becomes "or null", a boolean
 * `exclusiveMinimum`/`exclusiveMaximum` (draft-04 style) the numeric form. OpenAPI 3.1 schemas pass as
 * they are. Dereferenced documents share objects, and may be cyclic: converted once each.
 */
function toJsonSchema(schema: unknown, seen = new WeakMap<object, unknown>()): unknown {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s, seen))
  if (typeof schema !== 'object' || schema === null) return schema
  const known = seen.get(schema)
  if (known !== undefined) return known
  const out: Record<string, unknown> = {}
  seen.set(schema, out)
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'example' || k === 'nullable' || k.startsWith('x-')) continue
    out[k] = k === 'properties' || k === 'patternProperties' ? mapValues(v, seen) : toJsonSchema(v, seen)
  }
  const s = schema as Record<string, unknown>
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (s[flag] === true) {
      out[flag] = s[bound]
      delete out[bound]
    } else if (s[flag] === false) delete out[flag]
  }
  if (s.nullable !== true) return out
  const nullable = { anyOf: [out, { type: 'null' }] }
  seen.set(schema, nullable)
  return nullable
}

function mapValues(v: unknown, seen: WeakMap<object, unknown>): unknown {
  if (typeof v !== 'object' || v === null) return v
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJsonSchema(x, seen)]))
}

const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>()
function validatorOf(schema: object) {
  let v = compiled.get(schema)
  if (v === undefined) {
    v = ajv.compile(toJsonSchema(schema) as object)
    compiled.set(schema, v)
  }
  return v
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
}

/** What is wrong with `body` as the operation's `status` answer in JSON ([] when it conforms). */
export function responseProblems(op: OpenAPIV3.OperationObject, status: number, body: unknown): string[] {
  // OpenAPI 3 puts the schema under content; Swagger 2.0 (Coinbase's spec) on the response itself.
  const response = op.responses[String(status)] as
    | (OpenAPIV3.ResponseObject & { schema?: object })
    | undefined
  const schema = response?.content?.['application/json']?.schema ?? response?.schema
  if (schema === undefined) return [`the contract declares no JSON ${status} answer`]
  const validate = validatorOf(schema)
  return validate(body) ? [] : describe(validate.errors)
}

/**
 * What is wrong with a request to the operation: a query parameter the contract does not declare, a
 * required query parameter or header missing, a value its schema refuses.
 */
export function requestProblems(op: OpenAPIV3.OperationObject, url: URL, headers: Headers): string[] {
  const params = (op.parameters ?? []) as OpenAPIV3.ParameterObject[]
  const problems: string[] = []
  const declared = new Set(params.filter((p) => p.in === 'query').map((p) => p.name))
  for (const name of new Set(url.searchParams.keys()))
    if (!declared.has(name)) problems.push(`query ${name} is not in the contract`)
  for (const p of params) {
    const value =
      p.in === 'query' ? url.searchParams.get(p.name) : p.in === 'header' ? headers.get(p.name) : null
    if (p.in !== 'query' && p.in !== 'header') continue
    if (value === null) {
      if (p.required) problems.push(`${p.in} ${p.name} is required`)
      continue
    }
    // Swagger 2.0 gives a parameter's type on the parameter itself.
    const v2 = p as unknown as { type?: string; enum?: unknown[]; format?: string }
    const schema = (p.schema ??
      (v2.type === undefined ? undefined : { type: v2.type, enum: v2.enum, format: v2.format })) as
      | OpenAPIV3.SchemaObject
      | undefined
    if (schema === undefined) continue
    const validate = validatorOf(schema)
    // Query and header values are strings on the wire; an integer or number parameter is read as one.
    const typed = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value
    if (!validate(typed)) problems.push(`${p.in} ${p.name}=${value}: ${describe(validate.errors).join('; ')}`)
  }
  return problems
}
