import type { SettleResponse } from '@x402/core/types'
import { SettlementNotAttemptedError } from './createFacilitator.js'
import { fromFacilitatorReason, type PaymentErrorCode } from './paymentError.js'
import type { SettlementOutcome } from './settlementOutcome.js'

/**
 * What the gate does with a call after asking the facilitator to settle it:
 * - `paid`: the transfer is onchain: serve, settle the row.
 * - `pending`: broadcast (or possibly broadcast) and not seen included in time: serve with a pending
 *   receipt; the reconciler decides the row from the chain.
 * - `refused`: the chain refused or would refuse it and no money moved: do not serve, fail the row.
 * - `not_attempted`: the facilitator certainly did nothing: do not serve (503), fail the row.
 * - `unknown`: the settlement failed in a way that may follow a broadcast and we have no hash to watch:
 *   do not serve (503), keep the row pending as unserved; if the chain later shows the transfer, the
 *   row settles unserved and the operator refunds it.
 */
export type Disposition =
  | { kind: 'paid'; transaction: string }
  | { kind: 'pending'; transaction: string }
  | { kind: 'refused'; code: PaymentErrorCode; keepClaim: boolean; transaction: string | undefined }
  | { kind: 'not_attempted'; cause: unknown }
  | { kind: 'unknown'; reason: string }

/** x402's reason for a `transferWithAuthorization` that threw, whether or not it had been broadcast. */
const GENERIC_FAILURE = 'invalid_exact_evm_transaction_failed'

/**
 * Runs the settlement and reads its result. A refusal that says the authorization was used, or a mined
 * transaction that failed, is checked against the chain before it is believed: a copy of the
 * authorization submitted by someone else still paid us, and then the call is served.
 */
export async function resolveSettlement(
  settle: () => Promise<SettleResponse>,
  onChain: (txHash: string | undefined) => Promise<SettlementOutcome>,
): Promise<Disposition> {
  let result: SettleResponse
  try {
    result = await settle()
  } catch (err) {
    if (err instanceof SettlementNotAttemptedError) return { kind: 'not_attempted', cause: err }
    // A facilitator that did not answer may have broadcast: serve, and let the chain decide the row.
    return { kind: 'pending', transaction: '' }
  }
  if (result.success) return { kind: 'paid', transaction: result.transaction }
  if (result.errorReason === 'settlement_pending') return { kind: 'pending', transaction: result.transaction }

  const code = fromFacilitatorReason(result.errorReason)
  const transaction = result.transaction || undefined
  const maybeUsed = code === 'payment_replayed' || transaction !== undefined
  if (maybeUsed) {
    let outcome: SettlementOutcome
    try {
      outcome = await onChain(transaction)
    } catch {
      // The chain could not be read (an outage, a refused batch): whether this authorization paid us is
      // unknown. Not served; the row stays pending as unserved, and the reconciler decides it.
      return { kind: 'unknown', reason: 'settlement_check_failed' }
    }
    if (outcome.kind === 'paid') return { kind: 'paid', transaction: outcome.txHash }
    return { kind: 'refused', code, keepClaim: code === 'payment_replayed', transaction }
  }
  if (result.errorReason === GENERIC_FAILURE) return { kind: 'unknown', reason: result.errorReason }
  return { kind: 'refused', code, keepClaim: false, transaction }
}
