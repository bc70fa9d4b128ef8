/**
 * Typed errors with stable codes. Every failure the caller can see is one of these; the HTTP layer turns
 * them into `{ "error": { "code", "message", "field"?, "details"? } }`. Anything else reaching the error
 * handler is a bug and answers 500 `internal_error`.
 */
export type ErrorStatus = 400 | 402 | 403 | 404 | 405 | 409 | 413 | 422 | 429 | 500 | 501 | 502 | 503

export interface ErrorBody {
  error: { code: string; message: string; field?: string; details?: Record<string, unknown> }
}

export class AppError extends Error {
  override readonly name: string = 'AppError'
  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }

  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message }
    if (this.field !== undefined) error.field = this.field
    if (this.details !== undefined) error.details = this.details
    return { error }
  }
}

/** A field is missing or malformed. `field` is the dotted path inside its location (path, query or body). */
export class InvalidInputError extends AppError {
  override readonly name = 'InvalidInputError'
  constructor(field: string, message: string, details?: Record<string, unknown>) {
    super(400, 'invalid_input', message, field, details)
  }
}

/** The request body is not a JSON object we can read at all. */
export class MalformedBodyError extends AppError {
  override readonly name = 'MalformedBodyError'
  constructor(message: string, code = 'malformed_body') {
    super(400, code, message, 'body')
  }
}

export class NotFoundError extends AppError {
  override readonly name = 'NotFoundError'
  constructor(message = 'No such endpoint. GET /v1 lists every endpoint.') {
    super(404, 'not_found', message)
  }
}

export class MethodNotAllowedError extends AppError {
  override readonly name = 'MethodNotAllowedError'
  constructor(readonly allow: readonly string[]) {
    super(405, 'method_not_allowed', `This path accepts ${allow.join(', ')}.`, undefined, { allow })
  }
}

/** The endpoint is specified and routed, but its capability has not been built yet. Never charged. */
export class NotImplementedError extends AppError {
  override readonly name = 'NotImplementedError'
  constructor(capability: string) {
    super(501, 'not_implemented', `Not available yet: ${capability}. No payment is taken for this call.`)
  }
}

/** Over the rate ceiling for this client or wallet; `retryAfterSec` goes into Retry-After. */
export class RateLimitedError extends AppError {
  override readonly name = 'RateLimitedError'
  constructor(
    readonly retryAfterSec: number,
    scope: 'unpaid' | 'paid',
    limit: number,
    windowSeconds: number,
  ) {
    super(
      429,
      'rate_limited',
      scope === 'unpaid'
        ? `Too many unpaid requests from this address (${limit} per ${windowSeconds} s). Retry after ${retryAfterSec} s, or pay: paid calls get a higher ceiling.`
        : `Too many paid requests from this wallet (${limit} per ${windowSeconds} s). Retry after ${retryAfterSec} s.`,
      undefined,
      { scope, limit, windowSeconds },
    )
  }
}

/**
 * How long a caller should wait before retrying after a transient fault (an upstream, the chain or a store
 * down). An error class that carries `retryAfterSec` gets it sent as Retry-After by the HTTP layer.
 */
export const TRANSIENT_RETRY_AFTER_SEC = 5

/** The database or the shared state did not answer. Payments fail closed: nothing is charged. */
export class StoreUnavailableError extends AppError {
  override readonly name = 'StoreUnavailableError'
  readonly retryAfterSec = TRANSIENT_RETRY_AFTER_SEC
  constructor(store: 'database' | 'shared state', options?: { cause?: unknown }) {
    super(
      503,
      'store_unavailable',
      `The service's ${store} is unavailable. Nothing was charged; retry shortly.`,
      undefined,
      undefined,
      options,
    )
  }
}

/**
 * An upstream (a market API, or the chain's RPC) did not answer usefully: a 502 naming the upstream, with
 * Retry-After; nothing is charged for it.
 */
export class UpstreamError extends AppError {
  override readonly name = 'UpstreamError'
  readonly retryAfterSec = TRANSIENT_RETRY_AFTER_SEC
  constructor(
    readonly upstream: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      502,
      'upstream_unavailable',
      `The ${upstream} upstream is unavailable (${reason}). Nothing was charged; retry shortly.`,
      undefined,
      { upstream },
      options,
    )
  }
}

/** The `default` of an exhaustive `switch`: a case left unhandled fails to compile here. */
export function unreachable(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`)
}
