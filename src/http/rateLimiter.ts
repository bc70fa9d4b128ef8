import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context, MiddlewareHandler } from 'hono'
import type { RateLimitOptions } from '../config.js'
import { RateLimitedError } from '../errors.js'
import type { SharedState } from '../store/sharedState.js'
import type { AppEnv } from './env.js'

export interface RateLimiter {
  /** Counts one unpaid request from `client`; throws 429 over the ceiling. */
  unpaid(client: string): Promise<void>
  /** Counts one paid request from `wallet`; throws 429 over the ceiling. */
  paid(wallet: string): Promise<void>
}

/** Fixed windows in the shared state, so instances sharing Redis share the ceilings. */
export function createRateLimiter(state: SharedState, options: RateLimitOptions): RateLimiter {
  const windowMs = options.windowSeconds * 1000
  const check = async (scope: 'unpaid' | 'paid', key: string, limit: number) => {
    const window = Math.floor(Date.now() / windowMs)
    const { count, resetMs } = await state.hit(`rl:${scope}:${key}:${window}`, windowMs)
    if (count > limit) {
      throw new RateLimitedError(Math.max(1, Math.ceil(resetMs / 1000)), scope, limit, options.windowSeconds)
    }
  }
  return {
    unpaid: (client) => check('unpaid', client, options.unpaid),
    paid: (wallet) => check('paid', wallet.toLowerCase(), options.paid),
  }
}

/** The caller's address: the socket's peer, or the first X-Forwarded-For hop behind a trusted proxy. */
export function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    // In-process requests (app.request in tests) have no socket.
    return 'local'
  }
}

export function hasPaymentHeader(c: Context<AppEnv>): boolean {
  return c.req.header('payment-signature') !== undefined || c.req.header('x-payment') !== undefined
}

/**
 * The unpaid ceiling, for every request that carries no payment header. Paid requests are counted by
 * the payment gate once it knows the wallet (the signature proves it), so a forged header cannot spend
 * someone else's allowance.
 */
export function unpaidRateLimit(limiter: RateLimiter, trustProxy: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!hasPaymentHeader(c)) await limiter.unpaid(clientAddress(c, trustProxy))
    await next()
  }
}
