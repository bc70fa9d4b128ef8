import type { ErrorHandler } from 'hono'
import { AppError, MalformedBodyError, MethodNotAllowedError } from '../errors.js'
import type { AppEnv } from './env.js'

/** Maps typed errors to the one error body; anything untyped is a bug and becomes a logged 500. */
export const errorHandler: ErrorHandler<AppEnv> = (err, c) => {
  const error = err instanceof AppError ? err : asAppError(err)
  if (error === undefined) {
    c.var.logger?.error({ msg: 'unhandled error', err })
    return c.json({ error: { code: 'internal_error', message: 'Internal error. Nothing was charged.' } }, 500)
  }
  // Headers go with the answer, not through c.header: after a route's answer was discarded (the payment
  // gate's failure after the handler) the context holds no response, and c.header would throw (a 500).
  const headers: Record<string, string> = {}
  if (error instanceof MethodNotAllowedError) headers.Allow = error.allow.join(', ')
  // Rate limits and transient faults (an upstream, the chain or a store down) say when to come back.
  if ('retryAfterSec' in error && typeof error.retryAfterSec === 'number') {
    headers['Retry-After'] = String(error.retryAfterSec)
  }
  if (error.status >= 500 && error.status !== 501)
    c.var.logger?.warn({ msg: 'server-side failure', code: error.code, err })
  return c.json(error.toBody(), error.status, headers)
}

/** Hono's own HTTPException for unreadable bodies carries status 400; keep it a client error. */
function asAppError(err: Error): AppError | undefined {
  const status = (err as { status?: unknown }).status
  if (status === 400) return new MalformedBodyError('The request body could not be read.')
  return undefined
}
