import { isAddressEqual } from 'viem'
import { payByCredit } from '../credit/payByCredit.js'
import type { ChallengeExtensions } from '../gate/challengeExtensions.js'
import type { EncodedChallenge } from '../gate/encodeChallenge.js'
import { type Admission, decided, type GateOutcome, type GateRequest } from '../gate/gateOutcome.js'
import { beginRetryable, concludeRetry, type RetryKey, type RetryVerdict } from '../gate/paymentRetries.js'
import { PaymentError } from '../paymentError.js'
import type { PaymentServices } from '../paymentServices.js'
import { admitUsdc, type ClaimedPayment, type Held } from './admitUsdc.js'
import { type CheckedPayment, checkPayment } from './checkPayment.js'
import { CLAIM_GRACE_SECONDS } from './payerSettlements.js'

/** One `exact` payment as the gate hands it over. */
export interface ExactAdmission {
  services: PaymentServices
  /** The decoded PAYMENT-SIGNATURE (undefined when it did not decode: refused as malformed). */
  decoded: unknown
  /** `METHOD /path` of the route. */
  scope: string
  /** The posted price (the credit rail's base) and the price now (with the surge), in atomic units. */
  baseAmount: bigint
  currentAmount: bigint
  nowSec: number
  ref: `0x${string}` | undefined
  request: GateRequest
  extensions: ChallengeExtensions
  /** The call's payment identifier, when it carries one. */
  retry: RetryKey | undefined
  /** performance.now() when the gate took the request. */
  started: number
  /** A fresh challenge naming `error`. */
  challenge: (error: PaymentError) => EncodedChallenge
  /** A refusal of unpaid traffic (counted against the sender's unpaid ceiling). */
  refuse: (error: PaymentError, discard: boolean) => Promise<GateOutcome>
  /** What a request gets when its payment identifier is taken (a replay, a 409), counted as unpaid. */
  retried: (verdict: RetryVerdict) => Promise<GateOutcome>
}

/**
 * The `exact` rail's admission: local checks (unproven payments count against the client's unpaid
 * ceiling) → the payer's cool-down → the payment identifier taken → the claim on the authorization →
 * the UTIL credit rail (payByCredit.ts) or the USDC settlement (admitUsdc.ts). Its conclusion keeps or
 * releases the claim and the funds reservation, as the money went, and stores the answer for retries.
 */
export async function admitExact(a: ExactAdmission): Promise<Admission> {
  const { services, request, retry, nowSec } = a
  const { state, payerSettlements } = services
  let checked: CheckedPayment
  try {
    checked = await checkPayment(a.decoded, {
      route: a.scope,
      currentAmount: a.currentAmount,
      payTo: services.config.payTo,
      nowSec,
      quotes: services.quotes,
      // Only for signatures that do not recover locally (smart wallets): an RPC.
      isContract: async (address) => {
        await services.limiter.unpaidRoom(request.client)
        return services.isContract(address)
      },
    })
  } catch (err) {
    if (err instanceof PaymentError) return decided(await a.refuse(err, false))
    throw err
  }
  // A wallet cannot refer itself.
  const referrer = a.ref !== undefined && !isAddressEqual(a.ref, checked.payer) ? a.ref : undefined
  // A payer whose settlement reverted lately is refused before anything is spent on it.
  // A smart-wallet signature (one that does not recover) proves the payer holds code.
  if (await payerSettlements.coolingDown(checked.payer, !checked.signatureRecovered)) {
    return decided(await a.refuse(new PaymentError('payment_payer_cooling_down'), false))
  }
  const verifiedAt = performance.now()

  const claimKey = `auth:${checked.payer.toLowerCase()}:${checked.nonce.toLowerCase()}`
  const claimTtlMs = (Math.max(0, checked.validBefore - nowSec) + CLAIM_GRACE_SECONDS) * 1000
  // The identifier is taken for this call on every instance (its record lives as long as the claim, so a
  // retry within the authorization's validity finds it); a copy racing it, or another payment or request
  // under the same identifier, is answered from what it finds.
  if (retry !== undefined) {
    const begun = await beginRetryable(state, retry, claimTtlMs)
    if (begun !== undefined) return decided(await a.retried(begun))
  }
  // A copy of an authorization in use or used proves nothing about who sends it.
  if (!(await state.claim(claimKey, claimTtlMs))) {
    if (retry !== undefined) await state.release(retry.key)
    return decided(await a.refuse(new PaymentError('payment_replayed'), false))
  }
  const claimedMs = performance.now() - verifiedAt

  // From here on every exit either keeps the claim (money moved or may have) or releases it, and the
  // funds reservation follows the money: kept while a settlement may land, released when none will.
  const claimed: ClaimedPayment = {
    services,
    payment: checked,
    scope: a.scope,
    referrer,
    nowSec,
    claimTtlMs,
    extensions: a.extensions,
    request,
    challenge: a.challenge,
    refuse: a.refuse,
    timing: { started: a.started, verifiedAt, claimedMs },
  }
  const finish = async (held: Held): Promise<GateOutcome> => {
    const { payer, nonce } = checked
    let outcome = held.outcome
    try {
      await Promise.all([
        held.keepClaim ? undefined : state.release(claimKey),
        // Best effort: a lost update only leaves the reservation to expire with the authorization, which
        // errs towards refusing, and must never turn a paid, served call into an error.
        (held.funds === 'release'
          ? services.funds.release(payer, nonce)
          : held.funds === 'settled'
            ? services.funds.settled(payer, nonce)
            : Promise.resolve()
        ).catch((err: unknown) => services.logger.warn({ msg: 'funds book update failed', err })),
      ])
    } catch (err) {
      outcome = { kind: 'release_failed', error: err, decided: held.outcome }
    }
    if (retry !== undefined) await concludeRetry(services, retry, outcome, request.answer, claimTtlMs)
    return outcome
  }
  // The UTIL credit rail first (a top-up, then half-price calls without surge); else USDC.
  const byCredit = await payByCredit(claimed, a.baseAmount)
  const admission = byCredit.kind === 'usdc' ? await admitUsdc(claimed) : byCredit
  if (admission.kind === 'decided') return decided(await finish(admission.result))
  const { payer, conclude } = admission
  return { kind: 'admitted', payer, conclude: async (run) => finish(await conclude(run)) }
}
