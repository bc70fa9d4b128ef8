import type { PaymentPayload } from '@x402/core/types'
import type { PublicClient } from 'viem'
import type { CheckedPayment } from './checkPayment.js'
import type { PaymentServices } from './paymentServices.js'
import { type Disposition, resolveSettlement } from './resolveSettlement.js'
import { type ExpectedTransfer, settlementOutcome } from './settlementOutcome.js'

/** Where the settlement went while the payer's settlement turn was held. */
export type Attempt =
  | { kind: 'cooling_down' }
  | { kind: 'replayed' }
  | { kind: 'settled'; id: number; disposition: Disposition; openMs: number; settleMs: number }

/** An admitted, served call about to settle, in its payer's turn. */
export interface Settling {
  services: PaymentServices
  payment: CheckedPayment
  /** What the facilitator gets: the payment with our extensions. */
  forwarded: PaymentPayload
  /** `METHOD /path` of the route. */
  scope: string
  referrer: `0x${string}` | undefined
  nowSec: number
  /** Whether the payer's own code decides its transfer (it settles in the lane of payers with code). */
  hasCode: boolean
}

/** Within the payer's turn: the cool-down checked again, the pending row opened, the settlement resolved. */
export async function attemptSettlement(settling: Settling): Promise<Attempt> {
  const { services, payment, nowSec, forwarded, hasCode } = settling
  const { payerSettlements, config } = services
  // A predecessor may have reverted while this call waited.
  if (await payerSettlements.coolingDown(payment.payer, hasCode)) return { kind: 'cooling_down' }
  const openStarted = performance.now()
  const id = await services.ledger.open({
    payer: payment.payer,
    nonce: payment.nonce,
    route: settling.scope,
    amount: payment.amount,
    referrer: settling.referrer,
    payTo: config.payTo,
    validBefore: payment.validBefore,
  })
  const openMs = performance.now() - openStarted
  if (id === undefined) return { kind: 'replayed' }

  const settleStarted = performance.now()
  const disposition = await resolveSettlement(
    () =>
      services.facilitator.settle(forwarded, payment.requirements, {
        plainEoa: !hasCode && payment.signatureRecovered,
      }),
    (txHash, receipt) =>
      settlementOutcome(
        services.chain,
        expectedTransfer(payment, config.payTo, txHash, nowSec),
        nowSec,
        recentBlocks(services.chain),
        receipt,
      ),
  )
  const settleMs = performance.now() - settleStarted
  if (disposition.kind === 'refused' && disposition.payerAtFault) {
    await payerSettlements.coolDown(payment.payer, hasCode)
    services.logger.warn({ msg: 'payer put on cool-down', payer: payment.payer, code: disposition.code })
  }
  return { kind: 'settled', id, disposition, openMs, settleMs }
}

/** How many blocks back a settlement just attempted can have landed (ours, or a copy submitted first). */
const RECENT_BLOCKS = 256n

/** Settlement checks right after our attempt only look at recent blocks: nothing older can be ours. */
function recentBlocks(chain: PublicClient): () => Promise<bigint> {
  return async () => {
    const head = await chain.getBlockNumber()
    return head > RECENT_BLOCKS ? head - RECENT_BLOCKS : 0n
  }
}

function expectedTransfer(
  payment: CheckedPayment,
  payTo: `0x${string}`,
  txHash: string | undefined,
  nowSec: number,
): ExpectedTransfer {
  return {
    payer: payment.payer,
    payTo,
    nonce: payment.nonce,
    amount: payment.amount,
    txHash: txHash as `0x${string}` | undefined,
    validBefore: payment.validBefore,
    openedAtSec: nowSec,
  }
}
