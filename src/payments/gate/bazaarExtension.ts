import { bazaarResourceServerExtension, declareDiscoveryExtension } from '@x402/extensions/bazaar'
import type { z } from 'zod'
import { type JsonSchema, toJsonSchema } from '../../jsonSchema.js'

/** The `bazaar` entry of a challenge's `extensions`: how an indexer lists the route and how to call it. */
export type BazaarExtension = Record<string, unknown>

/**
 * What the extension reads of a route record (a `Route` of src/routes/route.ts is one). Payments sit below
 * the route layer, so they name the fields they read instead of importing the record type.
 */
export interface DescribedRoute {
  id: string
  method: string
  path: string
  tier: string
  input: { params?: z.ZodObject; query?: z.ZodObject; body?: z.ZodObject }
  output: z.ZodType
  example?: {
    params?: Record<string, unknown>
    query?: Record<string, string>
    body?: Record<string, unknown>
    output: unknown
  }
}

/** The route's path with the example's path parameters filled in (`/v1/ta/{sym}` → `/v1/ta/BTC`). */
export function examplePath(route: DescribedRoute): string {
  const params = (route.example?.params ?? {}) as Record<string, string>
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? `{${name}}`),
  )
}

/**
 * The x402 `bazaar` discovery extension of a priced route, built with the official
 * `@x402/extensions/bazaar` from the route table: the method, the example input with the JSON Schema of
 * the route's zod input (query parameters, path parameters, or the JSON body), and the example output
 * with the output schema. Built once per route at start; every challenge of the route carries it.
 * The package's resource-server extension adds the method and, for paths with parameters, the route
 * template (`/v1/ta/:sym`) and the example's path parameters, as its own middleware would per request.
 */
export function bazaarExtension(route: DescribedRoute): BazaarExtension {
  const example = route.example
  if (example === undefined) throw new Error(`${route.id} has no example: priced routes need one`)
  // Subschemas the output repeats (an idea in four lists) are written once, in the extension schema's
  // root `$defs`, where the package's validator (and any JSON Schema 2020-12 reader) resolves them.
  const full = withoutDescriptions(toJsonSchema(route.output, 'output', 'ref'))
  const { $defs, ...outputSchema } =
    route.tier === 'builder' ? abbreviateEnvelope(full) : abbreviateUnexampled(full, example.output)
  const outputExample =
    route.tier === 'builder'
      ? withoutKey(example.output as Record<string, unknown>, 'walletSendCalls')
      : example.output
  const output = { example: outputExample, schema: objectSchema(outputSchema) }
  const pathParams = route.input.params
    ? {
        pathParams: (example.params ?? {}) as Record<string, unknown>,
        pathParamsSchema: objectSchema(toJsonSchema(route.input.params, 'input')),
      }
    : {}
  const querySchema = route.input.query ? toJsonSchema(route.input.query, 'input') : { properties: {} }
  const declared = route.input.body
    ? declareDiscoveryExtension({
        bodyType: 'json',
        input: (example.body ?? {}) as Record<string, unknown>,
        // Builders' bodies are long-documented; the header carries their shape, /v1/openapi.json the words.
        inputSchema:
          route.tier === 'builder'
            ? withoutDescriptions(toJsonSchema(route.input.body, 'input'))
            : toJsonSchema(route.input.body, 'input'),
        ...pathParams,
        output,
      })
    : declareDiscoveryExtension({
        input: typedQuery(example.query ?? {}, querySchema),
        inputSchema: objectSchema(querySchema),
        ...pathParams,
        output,
      })
  const routePattern = route.path.replace(/\{(\w+)\}/g, ':$1')
  const enrich = bazaarResourceServerExtension.enrichDeclaration
  if (enrich === undefined) throw new Error('@x402/extensions: the bazaar server extension cannot enrich')
  // The transport context the package's own HTTP middleware passes, for the example request.
  const context = { method: route.method, routePattern, adapter: { getPath: () => examplePath(route) } }
  const enriched = enrich(declared.bazaar, context) as { schema: JsonSchema }
  return $defs === undefined ? enriched : { ...enriched, schema: { ...enriched.schema, $defs } }
}

/**
 * The `bazaar` entry as the PAYMENT-REQUIRED header carries it (issue 24): how to call the route (the
 * example input and its schema, without prose), not what it answers. Headers past 8 kB break behind
 * common proxies (nginx's default buffers turn the 402 into a 502) and leave no room under Node's
 * 16 kB limit; the output example and schema stay in the 402 body's copy and in /v1/openapi.json. Still
 * a valid discovery extension: the package validates `info` against `schema`, and `output` is optional.
 */
export function headerBazaar(full: BazaarExtension): BazaarExtension {
  const { info, schema } = full as { info: Record<string, unknown>; schema: JsonSchema }
  const { output: _output, ...input } = info
  const properties = withoutKey((schema.properties ?? {}) as Record<string, unknown>, 'output')
  const required = ((schema.required ?? []) as string[]).filter((k) => k !== 'output')
  return {
    ...full,
    info: input,
    schema: withReachableDefs(withoutDescriptions({ ...schema, properties, required })),
  }
}

/**
 * The blocks every builder answer shares (issues, simulation, walletSendCalls), as bare objects: spelled
 * out they would push a builder's PAYMENT-REQUIRED header past what HTTP clients accept (undici: 16 kB),
 * and they are the same for every builder (/v1/openapi.json has them in full). walletSendCalls, which
 * repeats the steps, is left out of the example and so not required here.
 */
const ENVELOPE_BLOCKS = ['issues', 'simulation', 'walletSendCalls']

function abbreviateEnvelope(schema: JsonSchema): JsonSchema {
  const properties = { ...((schema.properties ?? {}) as Record<string, JsonSchema>) }
  for (const key of ENVELOPE_BLOCKS) if (key in properties) properties[key] = { type: 'object' }
  const required = ((schema.required ?? []) as string[]).filter((k) => k !== 'walletSendCalls')
  return withReachableDefs({ ...schema, properties, required })
}

/**
 * A read whose output schema alone is over READ_SCHEMA_BUDGET characters (the wallet positions, five
 * sections of positions) keeps in full only the sections its example shows: a top-level property the
 * example leaves empty ([] or null) is abbreviated to its bare type, so the challenge header stays within
 * what HTTP clients accept. When that is not enough (the generated examples show every section a demo
 * wallet holds), the largest remaining sections are abbreviated too, one at a time, until the schema is
 * within the budget. /v1/openapi.json has every section in full.
 */
const READ_SCHEMA_BUDGET = 4_500

function abbreviateUnexampled(schema: JsonSchema, example: unknown): JsonSchema {
  if (JSON.stringify(schema).length <= READ_SCHEMA_BUDGET || example === null || typeof example !== 'object')
    return schema
  const shown = example as Record<string, unknown>
  const properties = { ...((schema.properties ?? {}) as Record<string, JsonSchema>) }
  const bare = (key: string, value: unknown): JsonSchema | undefined => {
    if (Array.isArray(value)) return { type: 'array' }
    if (value === null) return { anyOf: [{ type: 'object' }, { type: 'null' }] }
    if (typeof value === 'object') return { type: 'object' }
    return properties[key]
  }
  for (const key of Object.keys(properties)) {
    const value = shown[key]
    if ((Array.isArray(value) && value.length === 0) || value === null)
      properties[key] = bare(key, value) ?? {}
  }
  // Sized with the `$defs` still referred to, as withReachableDefs keeps them: a section's weight is
  // mostly in the definitions it alone uses.
  const size = (props: Record<string, JsonSchema>) =>
    JSON.stringify(withReachableDefs({ ...schema, properties: props })).length
  while (size(properties) > READ_SCHEMA_BUDGET) {
    const options = Object.keys(properties)
      .filter((k) => typeof shown[k] === 'object' && shown[k] !== null)
      .map((k) => ({ k, props: { ...properties, [k]: bare(k, shown[k]) ?? {} } }))
      .filter((o) => JSON.stringify(o.props[o.k]) !== JSON.stringify(properties[o.k]))
      .sort((a, b) => size(a.props) - size(b.props))
    const best = options[0]
    if (best === undefined) break
    properties[best.k] = best.props[best.k] as JsonSchema
  }
  return withReachableDefs({ ...schema, properties })
}

/** Drops the `$defs` entries nothing refers to any more (those of the abbreviated blocks). */
function withReachableDefs(schema: JsonSchema): JsonSchema {
  const { $defs, ...root } = schema
  if ($defs === undefined) return schema
  const defs = $defs as Record<string, unknown>
  const kept = new Set<string>()
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item)
      return
    }
    if (node === null || typeof node !== 'object') return
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
        const name = value.slice('#/$defs/'.length)
        if (!kept.has(name)) {
          kept.add(name)
          visit(defs[name])
        }
      } else visit(value)
    }
  }
  visit(root)
  return { ...root, $defs: Object.fromEntries(Object.entries(defs).filter(([name]) => kept.has(name))) }
}

function withoutKey(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = value
  return rest
}

/** Properties and `required` only: the package nests them under its own `type: object`. */
function objectSchema(schema: JsonSchema): JsonSchema {
  const { type: _type, ...rest } = schema
  return rest
}

/**
 * The example's query values as the schema types them: on the wire every value is text (`days=1`), but
 * the published schema says `integer`, and the package checks the example against it.
 */
function typedQuery(query: Record<string, string>, schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => {
      const type = properties[name]?.type
      if (type === 'integer' || type === 'number') return [name, Number(value)]
      if (type === 'boolean') return [name, value === 'true']
      return [name, value]
    }),
  )
}

/**
 * The output schema without its prose: the challenge travels in a header (and clients echo it back in
 * theirs), so it stays small; the example shows the shape, and the OpenAPI document has every field's
 * description. Input schemas keep theirs: a caller needs them to build a request.
 */
function withoutDescriptions(schema: unknown): JsonSchema {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip)
    if (node === null || typeof node !== 'object') return node
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => !(key === 'description' && typeof value === 'string'))
        .map(([key, value]) => [key, strip(value)]),
    )
  }
  return strip(schema) as JsonSchema
}
