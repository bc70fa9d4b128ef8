import { UpstreamError } from '../../errors.js'
import { UpstreamRateLimited } from './fetchJson.js'

/** Waits for the right to send one request to an upstream. */
export interface SendLimit {
  /** Resolves when a request may go; rejects (an UpstreamError, 502) when that is further off than allowed. */
  take(): Promise<void>
  /** The upstream said 429: send nothing more for `ms` (its lock-out), then resume at the window's rate. */
  pause(ms: number): void
}

/** No limit: every request goes at once. */
export const UNLIMITED: SendLimit = { take: async () => {}, pause: () => {} }

export interface WindowLimitOptions {
  upstream: string
  /** At most this many requests in any `windowMs` (0: no limit). */
  max: number
  windowMs: number
  /**
   * Added to the window on our side: the upstream counts arrivals, we count departures, and a request's
   * trip can place two of ours a little closer together there than here.
   */
  marginMs?: number
  /** A request whose turn is further off than this fails at once rather than queue (default 5 s). */
  maxWaitMs?: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

/**
 * A client-side sliding window: at most `max` requests leave in any `windowMs + marginMs`, in arrival
 * order, so the service stays under an upstream's documented limit (Pyth: 10 per 10 s per IP, locking an
 * address out for 60 s past it) and never draws the lock-out on everyone's behalf. A caller whose turn is
 * more than `maxWaitMs` away is refused at once (502 with a Retry-After), so a flood of reads waits a
 * bounded time and never builds an endless queue.
 */
export function createWindowLimit(options: WindowLimitOptions): SendLimit {
  const { upstream, max } = options
  if (max === 0) return UNLIMITED
  if (!(max >= 1 && options.windowMs > 0)) throw new RangeError('max must be ≥ 0 and windowMs > 0')
  const window = options.windowMs + (options.marginMs ?? 0)
  const maxWait = options.maxWaitMs ?? 5000
  const now = options.now ?? Date.now
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  /** Departure times still inside the window, oldest first; booked turns included. */
  const sent: number[] = []
  let pausedUntil = 0
  return {
    async take() {
      const t = now()
      while (sent.length > 0 && (sent[0] as number) <= t - window) sent.shift()
      // The turn of this request: once the request `max` places back has left the window, and not before
      // a pause ends or an earlier booked turn.
      const last = sent.length === 0 ? t : (sent[sent.length - 1] as number)
      const byWindow = sent.length < max ? t : (sent[sent.length - max] as number) + window
      const turn = Math.max(t, pausedUntil, byWindow, last)
      if (turn - t > maxWait) {
        const retryAfterSec = Math.ceil((turn - t) / 1000)
        throw new UpstreamError(
          upstream,
          `our own limit of ${max} requests per ${options.windowMs / 1000} s`,
          {
            retryAfterSec,
          },
        )
      }
      sent.push(turn)
      if (turn > t) await sleep(turn - t)
    },
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, now() + ms)
    },
  }
}

/** `send`, pausing `limit` for the upstream's lock-out (its Retry-After when it names one) on a 429. */
export async function pausingOn429<T>(
  limit: SendLimit,
  lockOutMs: number,
  send: () => Promise<T>,
): Promise<T> {
  try {
    return await send()
  } catch (err) {
    if (err instanceof UpstreamRateLimited) limit.pause(err.retryAfterMs ?? lockOutMs)
    throw err
  }
}

/** `send` once `limit` gives it a turn, pausing the limit on a 429. */
export async function throughLimit<T>(
  limit: SendLimit,
  lockOutMs: number,
  send: () => Promise<T>,
): Promise<T> {
  await limit.take()
  return pausingOn429(limit, lockOutMs, send)
}
