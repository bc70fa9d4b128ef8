import { UpstreamError } from './errors.js'

export interface CircuitBreakerOptions {
  /** Consecutive outages (no answer, a 5xx, an unreadable answer) that open the circuit. */
  failures: number
  /** How long an open circuit refuses calls before one probe is let through. */
  coolDownMs: number
  now?: () => number
  /**
   * Asked before the circuit opens, or opens again after a failed probe: whether the upstream still
   * answers a cheap request. If it does, the failures were the callers' (reads too heavy or too slow for
   * it), not the upstream's, and the circuit closes: otherwise anyone able to send failing calls, paid or
   * not, could pause it for everyone (or, winning the probe with one, keep it paused).
   */
  stillAnswers?: () => Promise<boolean>
  /**
   * How many calls may wait on the half-open probe's outcome (default 8); more are refused at once. One
   * paid call sends several requests together (the RPC's reads): a few waiting keeps the first call after
   * recovery from being refused beside its own probe, and the bound keeps a backlog from piling up there.
   */
  probeWaiters?: number
}

export type CircuitState = 'closed' | 'open' | 'half-open'

export interface CircuitBreaker {
  /**
   * Runs `call` unless the circuit is open, or half-open with its probe out and its waiters' room taken
   * (then throws the upstream's 502 at once, Retry-After = the cool-down's rest, at least 1 s). A rejection for which `isOutage` is true counts towards opening; a resolution, or a
   * rejection that is the upstream's own answer (a 404, a refusal of our request), closes it again.
   */
  run<T>(call: () => Promise<T>, isOutage?: (err: unknown) => boolean): Promise<T>
  state(): CircuitState
}

/**
 * A circuit breaker for one upstream. A dead upstream costs each caller the whole outbound timeout, and
 * each of those waits is one more request at an upstream that cannot answer: after `failures` outages in
 * a row the breaker answers for it (fast, uncharged, naming when to come back) for `coolDownMs`, then
 * lets exactly one probe through. The probe's success closes the circuit; its failure opens it for
 * another cool-down. While the probe is out, at most `probeWaiters` calls wait for its outcome (bounded by
 * the probe's own outbound timeout) and then go out, or are refused with the reopened circuit; any call
 * beyond them is refused at once, as when open, with Retry-After 1 s. Unbounded, the attack review parked
 * 500 callers there, all sent at once at a barely healed upstream when the probe succeeded.
 */
export function createCircuitBreaker(upstream: string, options: CircuitBreakerOptions): CircuitBreaker {
  const now = options.now ?? Date.now
  let consecutive = 0
  let openedAt: number | undefined
  const probeWaiters = options.probeWaiters ?? 8
  /** The probe out in the half-open state: settles when its outcome is known. */
  let probe: Promise<void> | undefined
  let waiting = 0
  const state = (): CircuitState => {
    if (openedAt === undefined) return 'closed'
    return now() - openedAt >= options.coolDownMs ? 'half-open' : 'open'
  }
  const refuse = (reason: string) => {
    const restMs = openedAt === undefined ? 0 : openedAt + options.coolDownMs - now()
    return new UpstreamError(upstream, reason, { retryAfterSec: Math.max(1, Math.ceil(restMs / 1000)) })
  }
  async function run<T>(
    call: () => Promise<T>,
    isOutage: (err: unknown) => boolean = () => true,
  ): Promise<T> {
    const at = state()
    if (at === 'open') {
      throw refuse(`${consecutive} failures in a row; calls to it are paused`)
    }
    const isProbe = at === 'half-open'
    let probeDone: (() => void) | undefined
    if (isProbe) {
      if (probe !== undefined) {
        if (waiting >= probeWaiters)
          throw refuse('a probe is testing whether it recovered; calls to it are paused')
        waiting += 1
        try {
          await probe
        } finally {
          waiting -= 1
        }
        // Closed by the probe: go out; opened again: refused with the new cool-down.
        return run(call, isOutage)
      }
      probe = new Promise<void>((r) => {
        probeDone = r
      })
    }
    try {
      const value = await call()
      consecutive = 0
      openedAt = undefined
      return value
    } catch (err) {
      if (!isOutage(err)) {
        consecutive = 0
        openedAt = undefined
      } else {
        consecutive += 1
        // A failed probe, or the threshold reached: (re)open from now, unless the upstream still answers
        // a cheap request (then the failures were the callers').
        if (isProbe || consecutive >= options.failures) {
          if (options.stillAnswers !== undefined && (await options.stillAnswers().catch(() => false))) {
            consecutive = 0
            openedAt = undefined
          } else if (isProbe) openedAt = now()
          else openedAt ??= now()
        }
      }
      throw err
    } finally {
      if (probeDone !== undefined) {
        probe = undefined
        probeDone()
      }
    }
  }
  return { state, run }
}

/** One breaker per upstream name, made on first use. */
export function circuitBreakers(
  options: CircuitBreakerOptions,
): ((upstream: string) => CircuitBreaker) & { notClosed(): Record<string, CircuitState> } {
  const byName = new Map<string, CircuitBreaker>()
  const breakerOf = (upstream: string) => {
    let breaker = byName.get(upstream)
    if (breaker === undefined) {
      breaker = createCircuitBreaker(upstream, options)
      byName.set(upstream, breaker)
    }
    return breaker
  }
  /** The upstreams whose circuit is open or half-open now, with that state. */
  const notClosed = () =>
    Object.fromEntries(
      [...byName].flatMap(([name, b]) => (b.state() === 'closed' ? [] : [[name, b.state()]])),
    )
  return Object.assign(breakerOf, { notClosed })
}
