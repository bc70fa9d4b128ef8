import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AppDeps } from '../deps.js'
import type { Route } from '../routes/route.js'
import { forwardedClient } from './clientAddress.js'
import { EXPOSED_HEADERS } from './exposedHeaders.js'
import { paramCount, toHonoPath } from './honoPath.js'
import { INBOUND_REQUEST_ID } from './requestContext.js'
import type { RouteGates } from './routeGates.js'

/** Answers a raw request itself (true), or leaves it to the app (false). */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>

/**
 * A request the fast path counted against the unpaid ceiling and then left to the app because the
 * ceiling refused it: the app answers with that verdict (its 429) and does not count the request again.
 */
const counted = new WeakMap<IncomingMessage, { refused?: unknown }>()

/**
 * A request the fast path counted and then left to the app: `refused` holds the ceiling's refusal (the
 * app answers it), absent when the ceiling let it through (the app must not count it again).
 */
export function countedVerdict(req: IncomingMessage | undefined): { refused?: unknown } | undefined {
  return req === undefined ? undefined : counted.get(req)
}

/** A Host the app's adapter would build a URL from (anything else it refuses itself, uncounted). */
const SANE_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/**
 * The unpaid 402 without the framework (issue 24). Probes are most of a paid API's traffic (indexers,
 * agents reading prices before paying, retries), and through Hono each one builds a Request, a Headers and
 * a Response around a ~3 kB header and a ~5 kB body that a bare `writeHead` sends as they are. A request
 * without a payment header to a priced route gets here exactly what the app would answer (the same
 * gate's `probe`, the same unpaid ceiling, CORS and X-Request-Id headers, the same access-log line, and a
 * test compares the two byte for byte); anything else, or anything unusual about it (an encoded or
 * dotted path, a `ref`, a challenge that does not fit), goes to the app untouched.
 */
export function createUnpaidFastPath(options: {
  routes: readonly Route[]
  gates: RouteGates
  deps: AppDeps
}): FastPath {
  const { deps } = options
  const match = routeMatcher(options.routes)
  const trustedProxies = deps.config.rateLimits.trustProxy
  const exposed = EXPOSED_HEADERS.join(',')
  return async (req, res) => {
    const method = req.method
    const raw = req.url
    if ((method !== 'GET' && method !== 'HEAD' && method !== 'POST') || raw === undefined) return false
    const headers = req.headers
    if (headers['payment-signature'] !== undefined || headers['x-payment'] !== undefined) return false
    const q = raw.indexOf('?')
    const path = q === -1 ? raw : raw.slice(0, q)
    // Paths the app would decode, normalize or cut (at a `#`), a query that may carry `ref` (the app's
    // reader decodes keys: `re%66=` is `ref=`), and a Host the app would refuse: all the app's.
    if (raw.includes('#') || path.includes('%') || path.includes('/.') || path.includes('//')) return false
    if (q !== -1 && (raw.includes('ref', q) || raw.includes('%', q))) return false
    const host = headers.host
    if (host !== undefined && !SANE_HOST.test(host)) return false
    const route = match(method === 'HEAD' ? 'GET' : method, path)
    const gate = route === undefined ? undefined : options.gates.get(route)
    if (route === undefined || gate === undefined) return false

    const started = performance.now()
    // Counted first, as the app counts before its gate: a sender past its ceiling costs no challenge.
    const xff = headers['x-forwarded-for']
    const forwarded = forwardedClient(typeof xff === 'string' ? xff : undefined, trustedProxies)
    const client = forwarded ?? req.socket.remoteAddress ?? 'unknown'
    try {
      await deps.limiter.unpaid(client)
    } catch (err) {
      counted.set(req, { refused: err })
      return false
    }
    let challenge: Awaited<ReturnType<typeof gate.probe>>
    try {
      challenge = await gate.probe({ url: `http://${host ?? 'localhost'}${raw}`, ref: undefined })
    } catch {
      // A URL too long for its challenge, the batch rail's terms unreadable: the app answers it.
      counted.set(req, {})
      return false
    }
    const inbound = headers['x-request-id']
    const requestId = typeof inbound === 'string' && INBOUND_REQUEST_ID.test(inbound) ? inbound : randomUUID()
    const headersOut = [
      'Content-Type',
      'application/json',
      'PAYMENT-REQUIRED',
      challenge.header,
      'Cache-Control',
      'no-store',
      'Access-Control-Allow-Origin',
      '*',
      'Access-Control-Expose-Headers',
      exposed,
      'X-Request-Id',
      requestId,
    ]
    // As the app answers a HEAD: no body, and no length for it (Node drops the body itself).
    if (method !== 'HEAD') headersOut.push('Content-Length', String(Buffer.byteLength(challenge.body)))
    // A body still arriving is not read: the connection closes after the answer instead of draining it.
    if (!req.complete) headersOut.push('Connection', 'close')
    res.writeHead(402, headersOut)
    res.end(challenge.body)
    if (deps.logger.isLevelEnabled('info')) {
      deps.logger.info({
        requestId,
        msg: 'request',
        method,
        path,
        route: toHonoPath(route.path),
        status: 402,
        ms: Math.round((performance.now() - started) * 100) / 100,
      })
    }
    return true
  }
}

/**
 * The route the app would run for a method and a path: static paths before parametric ones, then table
 * order, as src/http/mountRoutes.ts registers them.
 */
function routeMatcher(routes: readonly Route[]): (method: string, path: string) => Route | undefined {
  const fixed = new Map<string, Route>()
  const patterns: { method: string; pattern: RegExp; route: Route }[] = []
  for (const route of routes) {
    if (!route.path.includes('{')) {
      if (!fixed.has(`${route.method} ${route.path}`)) fixed.set(`${route.method} ${route.path}`, route)
      continue
    }
    const source = toHonoPath(route.path)
      .replace(/[.]/g, '\\.')
      .replace(/:[A-Za-z0-9_]+/g, '[^/]+')
    patterns.push({ method: route.method, pattern: new RegExp(`^${source}$`), route })
  }
  patterns.sort((a, b) => paramCount(a.route.path) - paramCount(b.route.path))
  return (method, path) =>
    fixed.get(`${method} ${path}`) ?? patterns.find((p) => p.method === method && p.pattern.test(path))?.route
}
