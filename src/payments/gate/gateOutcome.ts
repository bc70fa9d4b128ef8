import type { SettleResponse } from '@x402/core/types'
import type { EncodedChallenge } from './encodeChallenge.js'
import type { StoredAnswer } from './paymentRetries.js'

/** One request as the payment gate sees it: plain values, whatever framework carried it. */
export interface GateRequest {
  method: string
  /** The full request URL: the challenge names the resource by its path and query. */
  url: string
  /** PAYMENT-SIGNATURE, or its alias X-PAYMENT; undefined when neither was sent. */
  payment: string | undefined
  /** The `ref` query value as sent. */
  ref: string | undefined
  /** `X-UTIL-TOPUP`: a UTIL transfer's hash to register as prepaid credit (undefined: none sent). */
  topUp: string | undefined
  /** `X-UTIL-CREDIT: off`: pay in USDC even when the wallet holds credit. */
  creditOff: boolean
  /** The caller's address: the key of its unpaid ceiling. */
  client: string
  /**
   * Runs the route's handler once the payment is admitted, telling it which wallet pays (the prop desk acts
   * for that wallet only): undefined when the payment does not prove it (a batch-settlement channel whose
   * vouchers another key signs). Resolves to the status the handler answered.
   */
  next: (payer: `0x${string}` | undefined) => Promise<number>
  /**
   * SHA-256 (hex) of the request body, '' without one; read within the body limit (a larger body throws
   * the limit's error). Asked only of payments that carry a payment identifier.
   */
  bodyDigest: () => Promise<string>
  /** The handler's answer as it stands (after `next`): kept for the retries of a paid call with an identifier. */
  answer: () => Promise<Omit<StoredAnswer, 'receipt'>>
}

/**
 * What the gate decided about one request. `discard` is set on the refusals and errors decided after the
 * authorization was claimed: whatever the route answered (or anything else written into the response so
 * far) is dropped, and the 402 or the error is the whole answer.
 */
export type GateOutcome =
  /** No payment, or a HEAD (which would be served without its body, so is never charged): 402 with the route's challenge. */
  | { kind: 'challenge'; challenge: EncodedChallenge }
  /** The payment is refused: 402 with a fresh challenge naming the refusal's code. Nothing is charged. */
  | { kind: 'refuse'; challenge: EncodedChallenge; discard: boolean }
  /** Paid (settled, or broadcast and pending): the route's answer stands, with the receipt and the gate's Server-Timing. */
  | { kind: 'serve'; receipt: SettleResponse; serverTiming: string }
  /**
   * A retry (same payment identifier, payment and request) of a call already paid and answered: its stored
   * answer, with its receipt. The handler does not run and nothing is charged.
   */
  | { kind: 'replay'; answer: StoredAnswer }
  /**
   * The payment itself was the request (a batch-settlement refund): the gate answers it, with its receipt,
   * and the route's handler never runs. Nothing is charged.
   */
  | { kind: 'answer'; body: unknown; receipt: SettleResponse }
  /** The route answered an error (≥ 400): its answer stands, and nothing is charged. */
  | { kind: 'pass' }
  /** A typed error for the error handler: a malformed `ref` (400), a ceiling (429), a store or the facilitator down (503) … */
  | { kind: 'error'; error: unknown; discard: boolean }
  /** The outcome was decided and applied, then releasing the authorization's claim failed: the store's error replaces it. */
  | { kind: 'release_failed'; error: unknown; decided: GateOutcome }

/** What the route did between a rail's two phases: the status it answered, or what it threw. */
export type RouteRun =
  | { ok: true; status: number; handlerMs: number }
  | { ok: false; error: unknown; handlerMs: number }

/**
 * A rail's first phase, for one call: the payment admitted (the route may run, for `payer`: the wallet the
 * payment proves, undefined when it proves none), or the call decided without the route (a refusal, a
 * replay, a refund). `conclude` is the second phase: the rail settles or gives back what it took, given
 * what the route did. The gate runs the route once, between the two (paymentGate.ts).
 */
export type Admission<T = GateOutcome> =
  | { kind: 'decided'; result: T }
  | { kind: 'admitted'; payer: `0x${string}` | undefined; conclude: (run: RouteRun) => Promise<T> }

/** A call decided without the route. */
export function decided<T>(result: T): Admission<T> {
  return { kind: 'decided', result }
}
