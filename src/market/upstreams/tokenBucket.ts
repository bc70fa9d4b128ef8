/** Waits for the right to send one request. */
export interface TokenBucket {
  take(): Promise<void>
}

/**
 * A client-side token bucket: at most `burst` requests at once, refilled at `ratePerSec`, callers served
 * in arrival order. It mirrors an upstream's own lazy-fill bucket (Coinbase Exchange's public endpoints:
 * 10 requests per second per IP, bursts to 15), so a fan-out of reads waits a few hundred milliseconds
 * instead of drawing 429s. `ratePerSec` 0 means no limit.
 */
export function createTokenBucket(options: {
  ratePerSec: number
  burst: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}): TokenBucket {
  const { ratePerSec, burst } = options
  if (ratePerSec === 0) return { take: async () => {} }
  if (!(ratePerSec > 0 && burst >= 1)) throw new RangeError('ratePerSec must be ≥ 0 and burst ≥ 1')
  const now = options.now ?? Date.now
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  let tokens = burst
  let last = now()
  const refill = () => {
    const t = now()
    tokens = Math.min(burst, tokens + ((t - last) / 1000) * ratePerSec)
    last = t
  }
  // One waiter at a time, in arrival order: a later caller never overtakes an earlier one.
  let queue: Promise<void> = Promise.resolve()
  return {
    take() {
      const turn = queue.then(async () => {
        refill()
        if (tokens < 1) {
          await sleep(Math.ceil(((1 - tokens) / ratePerSec) * 1000))
          refill()
        }
        tokens -= 1
      })
      queue = turn.catch(() => {})
      return turn
    },
  }
}
