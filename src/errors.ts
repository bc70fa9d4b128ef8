/**
 * Typed errors with stable codes. Every failure the caller can see is one of these; the HTTP layer turns
 * them into `{ "error": { "code", "message", "field"?, "details"? } }`. Anything else reaching the error
 * handler is a bug and answers 500 `internal_error`.
 */
export type ErrorStatus = 400 | 402 | 403 | 404 | 405 | 409 | 413 | 414 | 422 | 429 | 500 | 501 | 502 | 503

/**
 * The codes any route or the HTTP layer itself can answer, besides a builder's, a read's and a payment's own
 * (BUILD_ERRORS, READ_ERRORS, PAYMENT_ERRORS): the status each answers and what it means. The registry of
 * every code the API answers (src/routes/shared/errorCodes.ts) merges them.
 */
export const GENERIC_ERRORS = {
  invalid_input: { status: 400, meaning: 'A field is missing or malformed; `field` names it.' },
  malformed_body: { status: 400, meaning: 'The body is not a JSON object that can be read.' },
  unsupported_media_type: { status: 400, meaning: 'The body is not sent as application/json.' },
  body_too_large: { status: 400, meaning: 'The body is larger than the service accepts.' },
  not_found: { status: 404, meaning: 'No such endpoint; GET /v1 lists every endpoint.' },
  method_not_allowed: { status: 405, meaning: 'The path is served under other methods; `Allow` lists them.' },
  rate_limited: {
    status: 429,
    meaning: 'Over the rate ceiling for this client or wallet; retry after Retry-After.',
  },
  internal_error: { status: 500, meaning: 'A bug on our side; nothing was charged.' },
  not_implemented: { status: 501, meaning: 'Specified but not built yet; nothing is charged.' },
  upstream_unavailable: {
    status: 502,
    meaning:
      'An upstream (a market API, or the chain RPC) did not answer usefully, or its answer failed our checks; ' +
      '`details.upstream` names it, nothing was charged, retry after Retry-After.',
  },
  store_unavailable: {
    status: 503,
    meaning:
      "The service's database or shared state did not answer; nothing was charged, retry after Retry-After.",
  },
} as const satisfies Record<string, { status: ErrorStatus; meaning: string }>

export type GenericErrorCode = keyof typeof GENERIC_ERRORS

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
  constructor(
    message: string,
    code: Extract<
      GenericErrorCode,
      'malformed_body' | 'unsupported_media_type' | 'body_too_large'
    > = 'malformed_body',
  ) {
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
  readonly retryAfterSec: number
  /** `retryAfterSec`: when the caller should come back (an open circuit knows: its cool-down's rest). */
  constructor(
    readonly upstream: string,
    reason: string,
    options?: { cause?: unknown; retryAfterSec?: number },
  ) {
    super(
      502,
      'upstream_unavailable',
      `The ${upstream} upstream is unavailable (${reason}). Nothing was charged; retry shortly.`,
      undefined,
      { upstream },
      options,
    )
    this.retryAfterSec = options?.retryAfterSec ?? retryAfterOfCause(options?.cause)
  }
}

/**
 * The Retry-After for a transient fault caused by `cause`: an upstream's own (an open circuit names when it
 * probes again, however deep a library wrapped it), else TRANSIENT_RETRY_AFTER_SEC.
 */
export function retryAfterOfCause(cause: unknown): number {
  let e: unknown = cause
  for (let depth = 0; e instanceof Error && depth < 8; depth++) {
    if (e instanceof UpstreamError) return e.retryAfterSec
    e = e.cause
  }
  return TRANSIENT_RETRY_AFTER_SEC
}

/** The `default` of an exhaustive `switch`: a case left unhandled fails to compile here. */
export function unreachable(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`)
}
