import type { TransactionReceipt } from 'viem'
import { GENERIC_FAILURE } from '../facilitator/facilitatorReasons.js'
import { type Settlement, SettlementNotAttemptedError } from '../facilitator/settlement.js'
import { fromFacilitatorReason, type PaymentErrorCode } from '../paymentError.js'
import type { SettlementOutcome } from './settlementOutcome.js'

/**
 * What the gate does with a call after asking the facilitator to settle it:
 * - `paid`: the transfer is onchain: serve, settle the row.
 * - `pending`: broadcast (or possibly broadcast) and not seen included in time: serve with a pending
 *   receipt; the reconciler decides the row from the chain.
 * - `refused`: the chain refused or would refuse it and no money moved: do not serve, fail the row.
 *   `payerAtFault` when the payer made it fail at our cost or risk (our transaction was mined and
 *   reverted, or the settlement needed more gas than the limit): the gate puts the payer on cool-down.
 * - `not_attempted`: the facilitator certainly did nothing: do not serve (503), fail the row.
 * - `unknown`: the settlement failed in a way that may follow a broadcast and we have no hash to watch:
 *   do not serve (503), keep the row pending as unserved; if the chain later shows the transfer, the
 *   row settles unserved and the operator refunds it.
 */
export type Disposition =
  | { kind: 'paid'; transaction: string }
  | { kind: 'pending'; transaction: string }
  | {
      kind: 'refused'
      code: PaymentErrorCode
      keepClaim: boolean
      transaction: string | undefined
      payerAtFault: boolean
    }
  | { kind: 'not_attempted'; cause: unknown }
  | { kind: 'unknown'; reason: string }

/**
 * Runs the settlement and reads its result. A success is believed only when the transaction's own
 * events show this authorization used and its transfer paid us (a facilitator's word, or a cached
 * answer meant for another authorization, is not proof). A refusal that says the authorization was used,
 * or a mined transaction that failed, is checked against the chain before it is believed: a copy of the
 * authorization submitted by someone else still paid us, and then the call is served.
 */
export async function resolveSettlement(
  settle: () => Promise<Settlement>,
  onChain: (txHash: string | undefined, receipt?: TransactionReceipt) => Promise<SettlementOutcome>,
): Promise<Disposition> {
  let result: Settlement
  try {
    result = await settle()
  } catch (err) {
    if (err instanceof SettlementNotAttemptedError) return { kind: 'not_attempted', cause: err }
    // A facilitator that did not answer may have broadcast: serve, and let the chain decide the row.
    return { kind: 'pending', transaction: '' }
  }
  if (result.success) return confirmed(result, onChain)
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
    // Our transaction was mined and moved nothing because of what the payer did after we accepted the
    // payment: its funds or its signature changed, it cancelled the nonce, or it used the nonce for
    // another authorization. Each costs the relayer a reverted transaction.
    const payerAtFault =
      transaction !== undefined && outcome.kind === 'unpaid' && outcome.reason !== 'expired_unsettled'
    return { kind: 'refused', code, keepClaim: code === 'payment_replayed', transaction, payerAtFault }
  }
  if (result.errorReason === GENERIC_FAILURE) return { kind: 'unknown', reason: result.errorReason }
  return {
    kind: 'refused',
    code,
    keepClaim: false,
    transaction,
    payerAtFault: code === 'payment_gas_limit_exceeded',
  }
}

/** A reported success, checked against the chain: paid, pending (not visible yet) or refused. */
async function confirmed(
  result: Settlement,
  onChain: (txHash: string | undefined, receipt?: TransactionReceipt) => Promise<SettlementOutcome>,
): Promise<Disposition> {
  let outcome: SettlementOutcome
  try {
    outcome = await onChain(result.transaction, result.receipt)
  } catch {
    return { kind: 'unknown', reason: 'settlement_check_failed' }
  }
  switch (outcome.kind) {
    case 'paid':
      return { kind: 'paid', transaction: outcome.txHash }
    case 'pending':
      // Reported mined, not visible to our node yet (or never mined): served as pending, and the
      // reconciler books it from the chain, never from the report.
      return { kind: 'pending', transaction: result.transaction }
    case 'unpaid':
      return {
        kind: 'refused',
        code: 'payment_settlement_failed',
        keepClaim: outcome.reason !== 'settlement_reverted',
        transaction: result.transaction,
        payerAtFault: false,
      }
  }
}
