import type { RateLimitOptions } from '../../config.js'
import { RateLimitedError } from '../../errors.js'
import type { SharedState } from '../../store/sharedState.js'

export interface RateLimiter {
  /** Counts one unpaid request from `client`; throws 429 over the ceiling. */
  unpaid(client: string): Promise<void>
  /**
   * Throws 429 when `client` has no unpaid request left in this window, without counting one: asked
   * before spending an RPC on a payment that has not proven its wallet yet.
   */
  unpaidRoom(client: string): Promise<void>
  /** Counts one paid request from `wallet`; throws 429 over the ceiling. */
  paid(wallet: string): Promise<void>
}

/**
 * Fixed windows in the shared state, so instances sharing Redis share the ceilings. `now` is the
 * services' clock (milliseconds since the epoch), never ambient time.
 */
export function createRateLimiter(
  state: SharedState,
  options: RateLimitOptions,
  now: () => number,
): RateLimiter {
  const windowMs = options.windowSeconds * 1000
  const windowKey = (scope: 'unpaid' | 'paid', key: string) =>
    `rl:${scope}:${key}:${Math.floor(now() / windowMs)}`
  const check = async (scope: 'unpaid' | 'paid', key: string, limit: number) => {
    const { count, resetMs } = await state.hit(windowKey(scope, key), windowMs)
    if (count > limit) {
      throw new RateLimitedError(Math.max(1, Math.ceil(resetMs / 1000)), scope, limit, options.windowSeconds)
    }
  }
  return {
    unpaid: (client) => check('unpaid', client, options.unpaid),
    async unpaidRoom(client) {
      if ((await state.count(windowKey('unpaid', client))) >= options.unpaid) {
        const resetMs = windowMs - (now() % windowMs)
        throw new RateLimitedError(
          Math.max(1, Math.ceil(resetMs / 1000)),
          'unpaid',
          options.unpaid,
          options.windowSeconds,
        )
      }
    },
    paid: (wallet) => check('paid', wallet.toLowerCase(), options.paid),
  }
}
