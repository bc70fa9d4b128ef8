import type { SettleResponse } from '@x402/core/types'
import { NETWORK } from '../../chain/network.js'
import { unreachable } from '../../errors.js'
import type { GateOutcome } from '../gate/gateOutcome.js'
import { FacilitatorUnavailableError, PaymentError, SettlementUnknownError } from '../paymentError.js'
import type { PaymentServices } from '../paymentServices.js'
import type { Disposition } from './resolveSettlement.js'

/** What becomes of the payer's funds reservation once the call is decided. */
export type FundsFate = 'none' | 'release' | 'settled' | 'keep'

/** How a settled call is answered: served with its receipt, or refused with a fresh challenge. */
export interface Answers {
  serve(receipt: SettleResponse): GateOutcome
  refuse(error: PaymentError): GateOutcome
}

/** Whether the authorization's claim and the funds reservation outlive a settled call. */
export function fateOf(disposition: Disposition): { keepClaim: boolean; funds: FundsFate } {
  switch (disposition.kind) {
    case 'paid':
      return { keepClaim: true, funds: 'settled' }
    case 'pending':
    case 'unknown':
      // The transfer may still land: the reservation lives until the row is decided.
      return { keepClaim: true, funds: 'keep' }
    case 'not_attempted':
      return { keepClaim: false, funds: 'release' }
    case 'refused':
      return { keepClaim: disposition.keepClaim, funds: 'release' }
    default:
      return unreachable(disposition)
  }
}

/** Writes the settlement's outcome to the books and decides the answer. */
export async function recordSettlement(
  services: PaymentServices,
  payer: `0x${string}`,
  id: number,
  disposition: Disposition,
  answer: Answers,
): Promise<GateOutcome> {
  const { ledger, logger } = services
  const recordLater = (write: Promise<void>) => {
    write.catch((err: unknown) =>
      logger.error({ msg: 'ledger write failed; the reconciler settles the row from the chain', id, err }),
    )
  }
  switch (disposition.kind) {
    case 'paid':
      // Off the response path: the pending row written before the broadcast, and the reconciler,
      // already guarantee the outcome reaches the books even if this write is lost.
      // `served`: the answer leaves now. Written as it leaves, not when the row is opened, so a
      // process killed in the settlement's wait leaves an unserved row (a refund if the transfer lands).
      recordLater(ledger.settle(id, disposition.transaction, true))
      return answer.serve({
        success: true,
        transaction: disposition.transaction,
        network: NETWORK,
        payer: payer,
      })
    case 'pending':
      // Broadcast (or maybe broadcast) but not seen included within the bounded wait: serve, never
      // rebroadcast, reconcile soon.
      recordLater(ledger.markPending(id, disposition.transaction || undefined, true))
      services.reconcileSoon()
      return answer.serve({
        success: false,
        errorReason: 'settlement_pending',
        transaction: disposition.transaction,
        network: NETWORK,
        payer: payer,
      })
    case 'not_attempted':
      await ledger.fail(id, 'facilitator_unavailable')
      return {
        kind: 'error',
        error: new FacilitatorUnavailableError({ cause: disposition.cause }),
        discard: false,
      }
    case 'unknown':
      // The pending row already reaches the reconciler: a store fault here must not turn this into
      // a "nothing was charged, retry" answer while the transfer may still land.
      await ledger
        .withhold(id, 'settlement_unknown')
        .catch((err: unknown) =>
          logger.error({ msg: 'withholding the row failed; the reconciler decides it', id, err }),
        )
      services.reconcileSoon()
      logger.warn({
        msg: 'settlement outcome unknown; not served',
        payer: payer,
        reason: disposition.reason,
      })
      return { kind: 'error', error: new SettlementUnknownError(), discard: false }
    case 'refused':
      await ledger.fail(id, disposition.code, disposition.transaction)
      logger.info({ msg: 'settlement refused', code: disposition.code, payer: payer })
      return answer.refuse(new PaymentError(disposition.code))
    default:
      return unreachable(disposition)
  }
}
