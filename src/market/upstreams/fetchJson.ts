import type { CircuitBreaker } from '../../circuitBreaker.js'
import { AppError, UpstreamError } from '../../errors.js'

/**
 * A 404 from an upstream: the thing asked for does not exist there. Adapters that expect a miss map it to
 * null or [] themselves; one that reaches the caller is a 404 naming the upstream, never a 500, and costs
 * nothing. The URL (our upstream's address) stays out of the body; it is kept for logs.
 */
export class UpstreamNotFound extends AppError {
  override readonly name = 'UpstreamNotFound'
  constructor(
    readonly upstream: string,
    readonly url: string,
  ) {
    super(
      404,
      'upstream_not_found',
      `The ${upstream} upstream has no record of what was asked for. Check the identifiers you passed; nothing was charged.`,
      undefined,
      { upstream },
    )
  }
}

/**
 * `headers` are added to the defaults (an API key, a version pin). `keyRefusals`: the statuses by which this
 * upstream refuses our key (Hermes: 401 and 403; 0x: 401, its 403 being a per-taker sanctions refusal): an
 * outage (the circuit opens, /ready lists it). Any other 4xx but 404 and 429 is a refusal of the request.
 */
export type FetchJson = (
  upstream: string,
  url: string,
  headers?: Record<string, string>,
  keyRefusals?: readonly number[],
) => Promise<unknown>

/**
 * The upstream answered, but refused our request (a 4xx other than 404 and 429): a 502 like any failure,
 * yet the upstream is alive, and a caller able to provoke it must not be able to pause it for everyone.
 */
class UpstreamRefusal extends UpstreamError {}

/**
 * A 429: the upstream limits our rate. `retryAfterMs` is its Retry-After (seconds or an HTTP date), when
 * it sends one; the adapter pauses its own sends that long, or for the upstream's documented lock-out.
 */
export class UpstreamRateLimited extends UpstreamError {
  constructor(
    upstream: string,
    readonly retryAfterMs: number | undefined,
  ) {
    super(
      upstream,
      'HTTP 429',
      retryAfterMs === undefined ? {} : { retryAfterSec: Math.ceil(retryAfterMs / 1000) },
    )
  }
}

function retryAfterMsOf(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000
  const at = Date.parse(header)
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined
}

/**
 * What pauses an upstream: no answer, a 5xx, a 429, a refusal of our key (`keyRefusals`), an unreadable body.
 * Never its 404 or its refusals of a request (another 4xx).
 */
const isOutage = (err: unknown) => !(err instanceof UpstreamNotFound || err instanceof UpstreamRefusal)

export interface FetchJsonOptions {
  /** The most one request may take, to the end of its body (default 8 s). */
  timeoutMs?: number
  /** The breaker of each upstream name (src/circuitBreaker.ts); none: every call goes out. */
  breakerOf?: (upstream: string) => CircuitBreaker
}

/**
 * GET a JSON document with a timeout covering the whole answer; 404 → UpstreamNotFound, any other failure
 * → UpstreamError (502, Retry-After). Through the upstream's circuit breaker: once it has failed
 * `BREAKER_FAILURES` times in a row, calls fail fast without leaving until its cool-down ends.
 */
export function createFetchJson(options: FetchJsonOptions = {}): FetchJson {
  const timeoutMs = options.timeoutMs ?? 8000
  const once: FetchJson = async (upstream, url, headers, keyRefusals = []) => {
    // One deadline for the headers and the body: a server that answers its headers and then stalls is
    // as dead as one that never answers.
    const signal = AbortSignal.timeout(timeoutMs)
    let res: Response
    try {
      res = await fetch(url, {
        headers: { accept: 'application/json', 'user-agent': 'agentdesk/1.0', ...headers },
        // A redirect would carry our key headers (0x-api-key, x-api-key: fetch strips only Authorization)
        // to whatever host it names: no upstream of ours redirects its API, so one is a fault.
        redirect: 'error',
        signal,
      })
    } catch (err) {
      throw new UpstreamError(upstream, signal.aborted ? `no answer within ${timeoutMs} ms` : 'no answer', {
        cause: err,
      })
    }
    if (res.status === 404) {
      await res.body?.cancel()
      throw new UpstreamNotFound(upstream, url)
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {})
      if (res.status === 429)
        throw new UpstreamRateLimited(upstream, retryAfterMsOf(res.headers.get('retry-after')))
      // Only the statuses the adapter names as its key refused are an outage among the 4xx: a caller able to
      // provoke any other (a 0x 403 for a sanctioned taker, a firewall's 403) must not pause it for all.
      const refused =
        res.status >= 400 && res.status < 500 && res.status !== 429 && !keyRefusals.includes(res.status)
      throw new (refused ? UpstreamRefusal : UpstreamError)(upstream, `HTTP ${res.status}`)
    }
    try {
      return await res.json()
    } catch (err) {
      throw new UpstreamError(
        upstream,
        signal.aborted ? `answer not finished within ${timeoutMs} ms` : 'unreadable body',
        { cause: err },
      )
    }
  }
  const { breakerOf } = options
  if (breakerOf === undefined) return once
  return (upstream, url, headers, keyRefusals) =>
    breakerOf(upstream).run(() => once(upstream, url, headers, keyRefusals), isOutage)
}
