import type { ErrorBody } from '../../src/errors.js'

/**
 * The error an answer's body carries: `{ error: { code, … } }` for every error but a refused payment,
 * whose 402 body is an x402 PaymentRequired (`error` a string) with our error under `refusal`.
 */
export function errorOf(body: unknown): ErrorBody['error'] | undefined {
  if (body === null || typeof body !== 'object') return undefined
  const { error, refusal } = body as { error?: unknown; refusal?: ErrorBody['error'] }
  if (refusal !== undefined) return refusal
  return typeof error === 'object' && error !== null ? (error as ErrorBody['error']) : undefined
}
