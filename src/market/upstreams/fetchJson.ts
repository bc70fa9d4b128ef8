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

/** `headers` are added to the defaults (an API key, a version pin). */
export type FetchJson = (upstream: string, url: string, headers?: Record<string, string>) => Promise<unknown>

/** GET a JSON document with a timeout; 404 → UpstreamNotFound, any other failure → UpstreamError. */
export function createFetchJson(timeoutMs = 8000): FetchJson {
  return async (upstream, url, headers) => {
    let res: Response
    try {
      res = await fetch(url, {
        headers: { accept: 'application/json', 'user-agent': 'agentdesk/1.0', ...headers },
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (err) {
      throw new UpstreamError(upstream, 'no answer', { cause: err })
    }
    if (res.status === 404) {
      await res.body?.cancel()
      throw new UpstreamNotFound(upstream, url)
    }
    if (!res.ok) {
      await res.body?.cancel()
      throw new UpstreamError(upstream, `HTTP ${res.status}`)
    }
    try {
      return await res.json()
    } catch (err) {
      throw new UpstreamError(upstream, 'unreadable body', { cause: err })
    }
  }
}
