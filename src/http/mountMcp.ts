import type { Hono } from 'hono'
import type { AppDeps } from '../deps.js'
import { createMcpHandler } from '../mcp/createMcpHandler.js'
import { paymentOf } from '../mcp/mcpToolResult.js'
import type { Route } from '../routes/route.js'
import { clientAddress } from './clientAddress.js'
import type { AppEnv } from './env.js'
import { jsonBodyLimit } from './jsonBodyLimit.js'
import type { RouteGates } from './routeGates.js'

/** Where the MCP server answers (Streamable HTTP); the server card lists it. */
export const MCP_PATH = '/mcp'

/** The MCP server (src/mcp/) on the app, sharing the routes' payment gates with HTTP. */
export function mountMcp(
  app: Hono<AppEnv>,
  routes: readonly Route[],
  deps: AppDeps,
  gates: RouteGates,
): void {
  const handle = createMcpHandler(routes, deps, gates)
  const limit = jsonBodyLimit(deps.config.bodyLimitBytes)
  const priced = new Set(routes.filter((r) => r.priceUsd !== null).map((r) => r.id))
  app.on(['GET', 'POST', 'DELETE'], MCP_PATH, limit, async (c) => {
    const client = clientAddress(c, deps.config.rateLimits.trustProxy)
    // Parsed once, here and for the transport: the unpaid ceiling counts messages, not POSTs.
    const body: unknown =
      c.req.method === 'POST'
        ? await c.req.raw
            .clone()
            .json()
            .catch(() => undefined)
        : undefined
    for (let i = unpaidMessages(body, priced); i > 0; i--) await deps.limiter.unpaid(client)
    return handle({
      request: c.req.raw,
      body,
      client,
      requestId: c.var.requestId,
      logger: c.var.logger,
    })
  })
}

/**
 * How many of a request's JSON-RPC messages count against the unpaid ceiling: every request but a priced
 * tool's call carrying a payment (an object: `paymentOf`; `null` or a string is none, issue 37 item 5),
 * which its payment gate counts (against the proven wallet, or as unpaid
 * when refused), as over HTTP. Notifications (no id) ask for no work and are not counted. A batch counts
 * each message; a GET, a DELETE or a body that is no JSON-RPC counts once.
 */
export function unpaidMessages(body: unknown, priced: ReadonlySet<string>): number {
  if (body === undefined || body === null || typeof body !== 'object') return 1
  const messages = (Array.isArray(body) ? body : [body]) as {
    id?: unknown
    method?: unknown
    params?: { name?: unknown; _meta?: Record<string, unknown> }
  }[]
  return messages.filter((m) => {
    if (m === null || typeof m !== 'object' || m.id === undefined) return m === null || typeof m !== 'object'
    const paid =
      m.method === 'tools/call' &&
      typeof m.params?.name === 'string' &&
      priced.has(m.params.name) &&
      paymentOf(m.params._meta) !== undefined
    return !paid
  }).length
}
