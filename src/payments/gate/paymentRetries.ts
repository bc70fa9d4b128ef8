import { createHash } from 'node:crypto'
import type { SettleResponse } from '@x402/core/types'
import { isValidPaymentId, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier'
import { z } from 'zod'
import type { SharedState } from '../../store/sharedState.js'
import {
  PAYMENT_ID_FIELD,
  PaymentError,
  PaymentIdentifierConflictError,
  PaymentInProgressError,
} from '../paymentError.js'

/** The paid answer a retry gets back, as it first left: status, body and the receipt. */
export const storedAnswerSchema = z.object({
  status: z.number().int(),
  contentType: z.string().nullable(),
  body: z.string(),
  receipt: z.custom<SettleResponse>((v) => typeof v === 'object' && v !== null),
})
export type StoredAnswer = z.infer<typeof storedAnswerSchema>

/**
 * What the shared state holds under one (payer, id): the call running, or its answer. `payment` and
 * `request` are digests: of the signed authorization (every field and the signature) and of the request
 * (method, path and query, body).
 */
const retryRecordSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('running'), payment: z.string(), request: z.string() }),
  z.object({
    state: z.literal('done'),
    payment: z.string(),
    request: z.string(),
    answer: storedAnswerSchema,
  }),
])
type RetryRecord = z.infer<typeof retryRecordSchema>

/** One paid request that carries a payment identifier: where its record lives and what it must match. */
export interface RetryKey {
  key: string
  payment: string
  request: string
}

/** The request as the digest needs it. */
export interface RetryRequest {
  method: string
  url: string
  /** SHA-256 of the body ('' for none), read within the body limit. */
  bodyDigest: () => Promise<string>
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** What a payment must carry for its identifier to mean anything (built once: zod schemas cost to build). */
const retryShape = z.object({
  payload: z.union([
    // `exact`: the EIP-3009 authorization and its signature.
    z.object({ authorization: z.record(z.string(), z.unknown()), signature: z.unknown() }),
    // `batch-settlement`: the voucher (a deposit carries one too) and the channel's payer.
    z.object({
      type: z.string(),
      channelConfig: z.object({ payerAuthorizer: z.string() }),
      voucher: z.object({ channelId: z.unknown(), maxClaimableAmount: z.unknown(), signature: z.unknown() }),
    }),
  ]),
  extensions: z.record(z.string(), z.unknown()).optional(),
})

/**
 * The retry key of a decoded payment header, or undefined when it carries no payment identifier (or is not a
 * payment at all: the gate's checks refuse it later). The key is (payer, id), never the id alone: another
 * wallet sending someone's id must not read their answer. The payer is the authorization's `from` (`exact`)
 * or the channel's payerAuthorizer (`batch-settlement`) as sent; a stored answer is only ever given for the very same
 * signed authorization or voucher, so an unverified payer can read nothing. An identifier that breaks the
 * extension's rules (16 to 128 characters of [A-Za-z0-9_-]) is refused: ignoring it would charge a retry
 * the client believes protected.
 */
export async function retryKeyOf(decoded: unknown, request: RetryRequest): Promise<RetryKey | undefined> {
  // undefined: the header did not decode (the exact rail refuses it as malformed).
  if (typeof decoded !== 'object' || decoded === null) return undefined
  // Most payments carry no identifier: they are not parsed here at all (this runs on every paid call).
  const extensions = (decoded as { extensions?: unknown }).extensions
  if (typeof extensions !== 'object' || extensions === null || !(PAYMENT_IDENTIFIER in extensions))
    return undefined
  const shape = retryShape.safeParse(decoded)
  if (!shape.success) return undefined
  const extension = shape.data.extensions?.[PAYMENT_IDENTIFIER]
  if (extension === undefined) return undefined
  const id = (extension as { info?: { id?: unknown } } | null)?.info?.id
  // The server's declaration echoed without an id: the client did not ask for idempotency.
  if (id === undefined) return undefined
  if (typeof id !== 'string' || !isValidPaymentId(id)) {
    throw new PaymentError('payment_malformed', {
      field: PAYMENT_ID_FIELD,
      reason: 'A payment identifier is 16 to 128 characters of letters, digits, "-" and "_".',
    })
  }
  const { payload } = shape.data
  let from: string
  let signed: string[]
  if ('authorization' in payload) {
    const { authorization } = payload
    from = typeof authorization.from === 'string' ? authorization.from : ''
    signed = [
      ...['from', 'to', 'value', 'validAfter', 'validBefore', 'nonce'].map((f) => authorization[f]),
      payload.signature,
    ].map((v) => String(v).toLowerCase())
  } else {
    const { voucher } = payload
    // The key that signs the voucher (the rail refuses a channel without one): a channel naming someone
    // else as payer cannot take that wallet's identifiers.
    from = payload.channelConfig.payerAuthorizer
    signed = [payload.type, voucher.channelId, voucher.maxClaimableAmount, voucher.signature].map((v) =>
      String(v).toLowerCase(),
    )
  }
  const url = new URL(request.url)
  return {
    key: `payid:${from.toLowerCase()}:${id}`,
    payment: sha256(JSON.stringify(signed)),
    request: sha256(JSON.stringify([request.method, url.pathname + url.search, await request.bodyDigest()])),
  }
}

/** What a request with a payment identifier gets, given the record already held for its (payer, id). */
export type RetryVerdict = { kind: 'replay'; answer: StoredAnswer } | { kind: 'refuse'; error: Error }

function verdictOf(held: RetryRecord, retry: RetryKey): RetryVerdict {
  if (held.payment !== retry.payment)
    return { kind: 'refuse', error: new PaymentIdentifierConflictError('payment') }
  if (held.request !== retry.request)
    return { kind: 'refuse', error: new PaymentIdentifierConflictError('request') }
  return held.state === 'done'
    ? { kind: 'replay', answer: held.answer }
    : { kind: 'refuse', error: new PaymentInProgressError() }
}

function parseRecord(raw: string | undefined): RetryRecord | undefined {
  if (raw === undefined) return undefined
  try {
    const parsed = retryRecordSchema.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/**
 * Before any check: the very same signed payment and request as a call already answered (or running) get
 * that call's answer (or 409 `payment_in_progress`), whatever the clock or the price says now (the
 * authorization may be close to expiring, the surge may have moved). Anything else goes through the gate.
 */
export async function earlyRetry(state: SharedState, retry: RetryKey): Promise<RetryVerdict | undefined> {
  const held = parseRecord(await state.get(retry.key))
  if (held === undefined || held.payment !== retry.payment || held.request !== retry.request) return undefined
  return verdictOf(held, retry)
}

/**
 * With the payment checked (its signer proven), marks the call running under its (payer, id), atomically
 * across instances. Undefined when this request runs the call; otherwise what it gets instead: the stored
 * answer, 409 `payment_in_progress`, or 409 `payment_identifier_conflict` for another payment or request.
 */
export async function beginRetryable(
  state: SharedState,
  retry: RetryKey,
  ttlMs: number,
): Promise<RetryVerdict | undefined> {
  const running: RetryRecord = { state: 'running', payment: retry.payment, request: retry.request }
  const raw = await state.putIfAbsent(retry.key, JSON.stringify(running), ttlMs)
  if (raw === undefined) return undefined
  const held = parseRecord(raw)
  // An unreadable record (another version's) is not this call's: the identifier is taken.
  return held === undefined
    ? { kind: 'refuse', error: new PaymentIdentifierConflictError('request') }
    : verdictOf(held, retry)
}

/** The call was paid and answered: its answer is kept for its retries, for `ttlMs`. */
export async function storeAnswer(
  state: SharedState,
  retry: RetryKey,
  answer: StoredAnswer,
  ttlMs: number,
): Promise<void> {
  const done: RetryRecord = { state: 'done', payment: retry.payment, request: retry.request, answer }
  await state.put(retry.key, JSON.stringify(done), ttlMs)
}

/**
 * A call's outcome under its payment identifier. A served call's answer is stored before it leaves (a
 * response lost after the settlement can be asked again). A call not served stores nothing and frees the
 * identifier: its retry runs again, and meets the authorization's claim (`payment_replayed`) wherever money
 * moved or may have. Best effort: a paid, served call never turns into an error over it (its retry then meets
 * that claim, never a second charge).
 */
export async function concludeRetry(
  services: { state: SharedState; logger: { warn(o: object): void } },
  retry: RetryKey,
  outcome: { kind: string; receipt?: SettleResponse },
  answer: () => Promise<Omit<StoredAnswer, 'receipt'>>,
  ttlMs: number,
): Promise<void> {
  const { state, logger } = services
  if (outcome.kind === 'serve' && outcome.receipt !== undefined) {
    try {
      await storeAnswer(state, retry, { ...(await answer()), receipt: outcome.receipt }, ttlMs)
      return
    } catch (err) {
      logger.warn({ msg: 'payment identifier: answer not stored', err })
    }
  }
  await state
    .release(retry.key)
    .catch((err: unknown) => logger.warn({ msg: 'payment identifier: release failed', err }))
}
