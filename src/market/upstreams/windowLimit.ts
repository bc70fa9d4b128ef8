import { performance } from 'node:perf_hooks'
import { UpstreamError } from '../../errors.js'
import { UpstreamRateLimited } from './fetchJson.js'

/** Waits for the right to send one request to an upstream. */
export interface SendLimit {
  /** Resolves when a request may go; rejects (an UpstreamError, 502) when that is further off than allowed. */
  take(): Promise<void>
  /**
   * The upstream said 429: send nothing more for `ms` (its lock-out), then resume at the window's rate.
   * Turns already booked wait for the pause's end too.
   */
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
   * trip (or a late timer here) can place two of ours closer together there than here.
   */
  marginMs?: number
  /** A request whose turn is further off than this fails at once rather than queue (default 5 s). */
  maxWaitMs?: number
  /** A monotonic clock (default `performance.now`: a wall clock stepped back must not stall sends). */
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

/**
 * A client-side sliding window: at most `max` requests leave in any `windowMs + marginMs`, in arrival
 * order, so the service stays under an upstream's documented limit (Pyth: 10 per 10 s per IP, locking an
 * address out for 60 s past it) and never draws the lock-out on everyone's behalf. A caller whose turn is
 * more than `maxWaitMs` away is refused at once (502 with a Retry-After), so a flood of reads waits a
 * bounded time and never builds an endless queue. Each request is counted at the time it actually
 * leaves (a timer firing late moves it later, never earlier).
 */
export function createWindowLimit(options: WindowLimitOptions): SendLimit {
  const { upstream, max } = options
  if (max === 0) return UNLIMITED
  if (!(max >= 1 && options.windowMs > 0)) throw new RangeError('max must be ≥ 0 and windowMs > 0')
  const window = options.windowMs + (options.marginMs ?? 0)
  const maxWait = options.maxWaitMs ?? 5000
  const now = options.now ?? (() => performance.now())
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  /** Departure times still inside the window (booked turns included), ascending. */
  const sent: number[] = []
  let pausedUntil = Number.NEGATIVE_INFINITY
  const refuse = (waitMs: number) =>
    new UpstreamError(upstream, `our own limit of ${max} requests per ${options.windowMs / 1000} s`, {
      retryAfterSec: Math.max(1, Math.ceil(waitMs / 1000)),
    })
  return {
    async take() {
      const t = now()
      while (sent.length > 0 && (sent[0] as number) <= t - window) sent.shift()
      // This request's turn: once the request `max` places back has left the window, after any pause
      // and after every turn booked before it.
      const last = sent.length === 0 ? t : (sent[sent.length - 1] as number)
      const byWindow = sent.length < max ? t : (sent[sent.length - max] as number) + window
      const turn = Math.max(t, pausedUntil, byWindow, last)
      if (turn - t > maxWait) throw refuse(turn - t)
      sent.push(turn)
      if (turn > t) await sleep(turn - t)
      // A pause that began while this turn slept holds it too.
      for (let at = now(); at < pausedUntil; at = now()) {
        if (pausedUntil - at > maxWait) {
          sent.splice(sent.indexOf(turn), 1)
          throw refuse(pausedUntil - at)
        }
        await sleep(pausedUntil - at)
      }
      // Counted as it leaves: later than booked when the timer fired late.
      const left = now()
      const i = sent.indexOf(turn)
      if (i >= 0 && left > turn) sent[i] = left
      sent.sort((a, b) => a - b)
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
