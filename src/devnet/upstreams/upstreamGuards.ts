import type { Context, Hono } from 'hono'

/**
 * The two gates real upstreams put before their routes, for the simulators: an API key, and a rate
 * limit past which they answer 429. Each simulator states its upstream's documented values and bodies.
 */

/** Every request whose key (`keyOf`) is not `expected` is answered `refuse` (a 401 in the upstream's shape). */
export function requireKey(
  app: Hono,
  expected: string,
  keyOf: (c: Context) => string | undefined,
  refuse: (c: Context) => Response,
): void {
  app.use('*', async (c, next) => {
    if (keyOf(c) !== expected) return refuse(c)
    await next()
    return undefined
  })
}

/** No limit: every request is answered (DEVNET_UPSTREAM_LIMITS=off). */
export const NO_RATE_LIMIT: RateLimit = { max: Number.POSITIVE_INFINITY, windowMs: 1000 }

export interface RateLimit {
  /** At most this many requests are answered in any `windowMs` … */
  max: number
  windowMs: number
  /** … and past it nothing is, for this long (Pyth: 60 s); default: until the window has room again. */
  lockOutMs?: number
  /**
   * A token bucket instead of a window (Coinbase's): `burst` requests at once, refilled at `max` per
   * `windowMs`.
   */
  burst?: number
  /** The clock the limit counts by (default Date.now); a test holds it still. */
  now?: () => number
}

/**
 * A sliding window over arrivals (every client of a simulator is one loopback address, so one count):
 * past `max` in `windowMs`, `refuse` (a 429 in the upstream's shape, with Retry-After) until the
 * lock-out ends. `paths` limits it to the routes the upstream counts together (default: all).
 */
export function limitRate(
  app: Hono,
  limit: RateLimit,
  refuse: (c: Context, retryAfterSec: number) => Response,
  path = '*',
): void {
  const now = limit.now ?? Date.now
  if (limit.max === Number.POSITIVE_INFINITY) return
  if (limit.burst !== undefined) {
    const burst = limit.burst
    let tokens = burst
    let last = now()
    app.use(path, async (c, next) => {
      const t = now()
      tokens = Math.min(burst, tokens + ((t - last) * limit.max) / limit.windowMs)
      last = t
      if (tokens < 1) return refuse(c, Math.ceil(((1 - tokens) * limit.windowMs) / limit.max / 1000))
      tokens -= 1
      await next()
      return undefined
    })
    return
  }
  const arrivals: number[] = []
  let lockedUntil = 0
  app.use(path, async (c, next) => {
    const t = now()
    if (t < lockedUntil) return refuse(c, Math.ceil((lockedUntil - t) / 1000))
    while (arrivals.length > 0 && (arrivals[0] as number) <= t - limit.windowMs) arrivals.shift()
    if (arrivals.length >= limit.max) {
      lockedUntil =
        limit.lockOutMs === undefined ? (arrivals[0] as number) + limit.windowMs : t + limit.lockOutMs
      return refuse(c, Math.ceil((lockedUntil - t) / 1000))
    }
    arrivals.push(t)
    await next()
    return undefined
  })
}
