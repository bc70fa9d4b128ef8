import type { Route } from '../../src/routes/route.js'
import { routeSchemas } from '../../src/routes/shared/routeSchemas.js'
import { routeTable } from '../../src/routes/table.js'
import { samplePath } from './testApp.js'

/** Small seeded PRNG so a failing case reproduces from the printed seed. */
export function prng(seed: number) {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Values no field accepts as they are: wrong types, out of range, huge, unicode, bad hex and addresses. */
export const GARBAGE: readonly unknown[] = [
  '',
  ' ',
  'abc',
  '-1',
  '1e400',
  'NaN',
  'Infinity',
  '0x',
  '0xZZ',
  `0x${'g'.repeat(40)}`,
  `0x${'a'.repeat(41)}`,
  // A valid-looking address with a broken checksum, and hex of the wrong length.
  '0x70997970c51812DC3A010C7D01B50E0D17DC79c8',
  `0x${'ab'.repeat(31)}`,
  '1.5',
  '99999999999999999999999999999999999999999999999999999999999999999999999999999999999',
  '\u0000',
  '💥',
  'ﬁ\u202e\u200b',
  '%',
  '../../etc/passwd',
  'x'.repeat(5000),
  -1,
  0,
  1.1,
  1e308,
  -1e308,
  true,
  false,
  null,
  [],
  [1, 2],
  {},
  { a: 1 },
  'max',
]

/** The route's input names: path and query parameters, then body properties. */
export const inputNames = (route: Route) => {
  const s = routeSchemas(route)
  return [...s.parameters.map((p) => p.name), ...Object.keys((s.body?.properties ?? {}) as object)]
}

/** GET /v1 takes no input at all, so no request to it is malformed: every other route is fuzzed. */
export const FUZZED = routeTable.filter((r) => r.priceUsd !== null || inputNames(r).length > 0)

export interface HttpCase {
  method: string
  url: string
  init: RequestInit
  route?: Route
}

export interface McpCase {
  tool: string
  route: Route
  args: Record<string, unknown>
}

function queryString(entries: [string, unknown][]): string {
  const q = new URLSearchParams()
  for (const [k, v] of entries) q.append(k, typeof v === 'string' ? v : JSON.stringify(v))
  return q.size > 0 ? `?${q}` : ''
}

/**
 * A seeded generator of malformed requests over `routes`: unknown paths, wrong methods, garbage path
 * segments, garbage or missing or extra fields, unterminated and oversized bodies, duplicate keys, very
 * long URLs, the wrong content type; and MCP tool calls with the same garbage as arguments.
 */
export function fuzzCases(seed: number, routes: readonly Route[] = FUZZED) {
  const rand = prng(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T
  const garbageFields = (route: Route): [string, unknown][] => {
    const fields: [string, unknown][] = inputNames(route)
      .filter(() => rand() < 0.7)
      .map((n) => [n, pick(GARBAGE)])
    if (rand() < 0.3) fields.push([pick(['extra', 'foo', '__proto__', 'constructor']), pick(GARBAGE)])
    return fields
  }
  return {
    http(): HttpCase {
      const kind = rand()
      if (kind < 0.05)
        return {
          method: 'GET',
          url: `/v1/${pick(['nope', 'prices/x/y', 'tx', ''])}${pick(['', '/'])}`,
          init: {},
        }
      const route = pick(routes)
      if (kind < 0.1) {
        const method = pick(['PUT', 'DELETE', 'PATCH', route.method === 'GET' ? 'POST' : 'GET'])
        return { method, url: samplePath(route.path), init: { method }, route }
      }
      let path = samplePath(route.path)
      if (route.path.includes('{') && rand() < 0.3) {
        path = route.path.replace(/\{[a-z]+\}/i, encodeURIComponent(String(pick(GARBAGE))))
      }
      const fields = garbageFields(route)
      if (route.method === 'GET') {
        // A very long URL now and then (past what proxies forward: 16 kB).
        if (rand() < 0.03) fields.push([inputNames(route)[0] ?? 'q', 'z'.repeat(16_000)])
        return { method: 'GET', url: path + queryString(fields), init: {}, route }
      }
      const bodyKind = rand()
      let body: string
      let headers: Record<string, string> = { 'content-type': 'application/json' }
      if (bodyKind < 0.1) body = '{"unterminated": '
      else if (bodyKind < 0.15) body = 'x'.repeat(70_000)
      else if (bodyKind < 0.2) body = JSON.stringify({ big: 'y'.repeat(70_000) })
      else if (bodyKind < 0.25) body = JSON.stringify(pick([[], null, 42, 'str', true]))
      else if (bodyKind < 0.3) {
        body = 'a=1&b=2'
        headers = { 'content-type': 'application/x-www-form-urlencoded' }
      } else if (bodyKind < 0.35 && fields.length > 0) {
        // Duplicate keys: the first field twice, the second copy garbage.
        const [name] = fields[0] as [string, unknown]
        body = `{${[...fields, [name, pick(GARBAGE)] as [string, unknown]].map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`
      } else body = JSON.stringify(Object.fromEntries(fields))
      return { method: 'POST', url: path, init: { method: 'POST', body, headers }, route }
    },
    mcp(mcpRoutes: readonly Route[]): McpCase {
      const route = pick(mcpRoutes)
      return { tool: route.id, route, args: Object.fromEntries(garbageFields(route)) }
    },
  }
}
