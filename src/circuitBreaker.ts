import { UpstreamError } from './errors.js'

export interface CircuitBreakerOptions {
  /** Consecutive outages (no answer, a 5xx, an unreadable answer) that open the circuit. */
  failures: number
  /** How long an open circuit refuses calls before one probe is let through. */
  coolDownMs: number
  now?: () => number
  /**
   * Asked before the circuit opens: whether the upstream still answers a cheap request. If it does, the
   * failures were the callers' (reads too heavy or too slow for it), not the upstream's, and the circuit
   * stays closed: otherwise anyone able to send failing calls, paid or not, could pause it for everyone.
   */
  stillAnswers?: () => Promise<boolean>
}

export type CircuitState = 'closed' | 'open' | 'half-open'

export interface CircuitBreaker {
  /**
   * Runs `call` unless the circuit is open (then throws the upstream's 502 at once, Retry-After = the
   * cool-down's rest). A rejection for which `isOutage` is true counts towards opening; a resolution, or a
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
 * another cool-down. Calls arriving while the probe is out wait for its outcome (bounded by the probe's own
 * timeout) and then go out, or are refused with it: a healing upstream gets one request before the
 * backlog, and the first caller after it healed is not refused for arriving beside the probe.
 */
export function createCircuitBreaker(upstream: string, options: CircuitBreakerOptions): CircuitBreaker {
  const now = options.now ?? Date.now
  let consecutive = 0
  let openedAt: number | undefined
  /** The probe out in the half-open state: resolves true when it succeeded. */
  let probe: Promise<boolean> | undefined
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
    let settleProbe: ((ok: boolean) => void) | undefined
    if (at === 'half-open') {
      if (probe !== undefined) {
        if (!(await probe)) throw refuse('the probe after its failures failed too; calls to it are paused')
        return run(call, isOutage)
      }
      probe = new Promise<boolean>((r) => {
        settleProbe = r
      })
    }
    let ok = false
    try {
      const value = await call()
      consecutive = 0
      openedAt = undefined
      ok = true
      return value
    } catch (err) {
      if (!isOutage(err)) {
        consecutive = 0
        openedAt = undefined
        ok = true
      } else {
        consecutive += 1
        // A failed probe, or the threshold reached and the upstream not answering a cheap request either:
        // (re)open from now.
        if (at === 'half-open') openedAt = now()
        else if (consecutive >= options.failures) {
          if (options.stillAnswers !== undefined && (await options.stillAnswers().catch(() => false)))
            consecutive = 0
          else openedAt ??= now()
        }
      }
      throw err
    } finally {
      if (settleProbe !== undefined) {
        probe = undefined
        settleProbe(ok)
      }
    }
  }
  return { state, run }
}

/** One breaker per upstream name, made on first use. */
export function circuitBreakers(options: CircuitBreakerOptions): (upstream: string) => CircuitBreaker {
  const byName = new Map<string, CircuitBreaker>()
  return (upstream) => {
    let breaker = byName.get(upstream)
    if (breaker === undefined) {
      breaker = createCircuitBreaker(upstream, options)
      byName.set(upstream, breaker)
    }
    return breaker
  }
}
