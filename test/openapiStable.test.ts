import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { loadConfig } from '../src/config.js'
import { buildOpenApi } from '../src/discovery/openapi.js'
import { routeTable } from '../src/routes/table.js'

/**
 * The published OpenAPI document may only grow. `fixtures/openapi.before.json` is the document as it was
 * before the route files were moved (issue 23: `buildOpenApi(routeTable, loadConfig({ DATA_DIR:
 * 'memory://' }))` at 9e6e5d5, written with JSON.stringify(doc, null, 2)). Every operation in it must still
 * be served with the same operationId, tags, summary, price (`x-x402`, `x-payment-info`), parameters,
 * request body and response schemas. Allowed: new paths, new methods, new response statuses, new optional
 * parameters, new operation keys. Descriptions (the operation's and every `description` inside a schema)
 * are compared with runs of whitespace collapsed to one space, so prose may be re-wrapped in the source but
 * not reworded. A deliberate change to what is published replaces the fixture in the same commit, saying
 * why. Once so far, a pure addition: each error response's schema gained, beside its Error `$ref`, the enum
 * of the codes the operation answers with that status (`properties.error.properties.code.enum`); the
 * fixture's contents were extended in place with exactly those keys, nothing else of it changed.
 * Responses may grow (new properties, required properties and enum members: the credit rail, issue 25,
 * added the `topup_*` codes to every priced operation and built `GET /v1/util-credit/{wallet}`'s answer).
 * Once replaced on purpose: the two prop desk operations' request bodies (issue 25 asks for `trade.close`
 * beside `trade.open`, and `params` says what each action takes; the fixture took the new body as is).
 * And once more: every operation's `security` and `x-payment-info` (issue 26: payment is not an API key, so
 * no operation declares a security requirement, and `x-payment-info` takes the shape x402 discovery tools
 * parse: `price: { mode: "fixed", amount, currency }`, `protocols: [{ "x402": {} }]`); the fixture took both
 * as they are now. And once more: GET /v1/swap/price's description and its `blockNumber`, `gasEstimate` and
 * `networkFeeWei` descriptions, and GET /v1/arbitrage's gas paragraph (issue 27: fee estimates on every
 * path, `gasEstimate` is the whole swap transaction's gas); the fixture took those descriptions as they are. And POST /v1/tx/swap's and GET /v1/swap/price's
 * descriptions again (issue 27: tokenized stocks are routed through Uniswap only). And the two prop desk
 * operations' descriptions and POST /v1/prop/execute's request body (issue 36: an optional `quoteToken`
 * makes a quote hold through execute); the fixture took them as they are. And the descriptions of GET
 * /v1/ideas, /v1/ideas/summary, /v1/ideas/compare and /v1/alpha (issue 36: every asked market is in
 * `ideas` or `skipped` with its reason, and the summary's picks pass the listing's edge threshold, a change
 * of meaning the summary's description states); their responses only grew, and the fixture took the four
 * descriptions as they are.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Operation = { [key: string]: Json }
type Doc = { paths: Record<string, Record<string, Operation>>; components: { [key: string]: Json } }

const before = JSON.parse(
  readFileSync(new URL('./fixtures/openapi.before.json', import.meta.url), 'utf8'),
) as Doc
const now = JSON.parse(JSON.stringify(buildOpenApi(routeTable, loadConfig({ DATA_DIR: 'memory://' })))) as Doc

/**
 * Where a response schema `now` no longer offers what `was` published (paths into the schema): a response
 * may gain properties, required properties and enum members (a new error code an operation can answer),
 * and must keep everything else as it was.
 */
function shrinkage(was: Json, now: Json, at = '$'): string[] {
  if (Array.isArray(was) && Array.isArray(now) && (at.endsWith('.enum') || at.endsWith('.required'))) {
    return was
      .filter((v) => !now.some((n) => JSON.stringify(n) === JSON.stringify(v)))
      .map((v) => `${at}: ${v}`)
  }
  if (
    was !== null &&
    now !== null &&
    typeof was === 'object' &&
    typeof now === 'object' &&
    !Array.isArray(was)
  ) {
    if (Array.isArray(now)) return [at]
    return Object.entries(was).flatMap(([k, v]) =>
      k in now ? shrinkage(v, (now as Record<string, Json>)[k] as Json, `${at}.${k}`) : [`${at}.${k}`],
    )
  }
  return JSON.stringify(was) === JSON.stringify(now) ? [] : [at]
}

/** Whitespace runs collapsed in every `description` string, recursively; everything else untouched. */
function normalize(value: Json, key?: string): Json {
  if (typeof value === 'string') return key === 'description' ? value.replace(/\s+/g, ' ').trim() : value
  if (Array.isArray(value)) return value.map((v) => normalize(v))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v, k)]))
  }
  return value
}

const operations = Object.entries(before.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ path, method, op })),
)

describe('OpenAPI document stability (only additions)', () => {
  test('default: the fixture holds every operation of the table as it was', () => {
    expect(operations.length).toBe(56)
  })

  test.each(operations)('behavior: $method $path keeps what it published', ({ path, method, op }) => {
    const current = now.paths[path]?.[method]
    expect(current, `${method.toUpperCase()} ${path} is gone`).toBeDefined()
    if (!current) return
    for (const field of [
      'operationId',
      'tags',
      'summary',
      'security',
      'x-x402',
      'x-payment-info',
      'requestBody',
    ]) {
      expect(normalize(current[field] ?? null), field).toEqual(normalize(op[field] ?? null))
    }
    expect(normalize(current.description ?? null), 'description').toEqual(normalize(op.description ?? null))

    const params = (p: Json) =>
      Array.isArray(p) ? (p as { name: string; in: string; required?: boolean }[]) : []
    const currentParams = params(current.parameters ?? null)
    for (const param of params(op.parameters ?? null)) {
      const match = currentParams.find((p) => p.name === param.name && p.in === param.in)
      expect(normalize((match ?? null) as Json), `parameter ${param.in} ${param.name}`).toEqual(
        normalize(param as Json),
      )
    }
    const added = currentParams.filter(
      (p) => !params(op.parameters ?? null).some((q) => q.name === p.name && q.in === p.in),
    )
    for (const param of added)
      expect(param.required, `new parameter ${param.name} must be optional`).not.toBe(true)

    const responses = (op.responses ?? {}) as Record<string, { content?: Json; headers?: Json }>
    const currentResponses = (current.responses ?? {}) as Record<string, { content?: Json; headers?: Json }>
    for (const [status, response] of Object.entries(responses)) {
      expect(currentResponses[status], `response ${status}`).toBeDefined()
      const lost = shrinkage(
        normalize(response.content ?? null),
        normalize(currentResponses[status]?.content ?? null),
      )
      expect(lost, `response ${status} content`).toEqual([])
    }
  })

  test('behavior: every shared component schema is unchanged', () => {
    const schemas = before.components.schemas as Record<string, Json>
    const currentSchemas = now.components.schemas as Record<string, Json>
    for (const [name, schema] of Object.entries(schemas)) {
      expect(normalize(currentSchemas[name] ?? null), name).toEqual(normalize(schema))
    }
  })
})
