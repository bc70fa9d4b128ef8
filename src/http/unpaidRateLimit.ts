import type { Context, MiddlewareHandler } from 'hono'
import type { RateLimiter } from '../payments/limits/rateLimiter.js'
import type { Route } from '../routes/route.js'
import { clientAddress } from './clientAddress.js'
import type { AppEnv } from './env.js'
import { methodMatcher } from './methodMatcher.js'
import { MCP_PATH } from './mountMcp.js'
import { countedVerdict } from './unpaidFastPath.js'

export function hasPaymentHeader(c: Context<AppEnv>): boolean {
  return c.req.header('payment-signature') !== undefined || c.req.header('x-payment') !== undefined
}

/**
 * The unpaid ceiling, for every request except a priced route's request that carries a payment header:
 * the payment gate counts those itself, against the paying wallet once the payment proves it, else
 * against this same unpaid ceiling. A payment header on a free route, a discovery document or an unknown
 * path means nothing, so it is counted here like any other request.
 */
export function unpaidRateLimit(
  limiter: RateLimiter,
  trustedProxies: number,
  routes: readonly Route[],
): MiddlewareHandler<AppEnv> {
  const priced = methodMatcher(routes.filter((r) => r.priceUsd !== null))
  return async (c, next) => {
    // Counted already by the unpaid fast path, which left the request here: its refusal (a 429), or
    // nothing more to count.
    const verdict = countedVerdict(c.env?.incoming)
    if (verdict !== undefined) {
      if ('refused' in verdict) throw verdict.refused
      await next()
      return
    }
    // The MCP server counts its own requests, one per JSON-RPC message (mountMcp.ts).
    if (c.req.path === MCP_PATH) {
      await next()
      return
    }
    const gated = hasPaymentHeader(c) && priced(c.req.path).includes(c.req.method)
    if (!gated) await limiter.unpaid(clientAddress(c, trustedProxies))
    await next()
  }
}
