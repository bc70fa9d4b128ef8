import type { PaymentPayload } from '@x402/core/types'
import type { PublicClient } from 'viem'
import type { PaymentServices } from '../paymentServices.js'
import type { CheckedPayment } from './checkPayment.js'
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
        recentBlocks(services.chain, config.payments.settleTimeoutMs),
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

/** Base's blocks a second since Denim (2026-11-05): one every 200 ms. */
const BLOCKS_PER_SECOND = 5
/** Seconds before the attempt worth searching, past its own wait: the gate saw the authorization unused. */
const RECENT_MARGIN_SEC = 60

/**
 * Settlement checks right after our attempt only look at recent blocks: the gate saw the authorization
 * unused just before it, so its use (ours, or a copy submitted first) is no older than the settlement's wait
 * plus a margin: 400 blocks at the default 20 s wait (80 s at 200 ms; a slower chain is searched further).
 */
function recentBlocks(chain: PublicClient, settleTimeoutMs: number): () => Promise<bigint> {
  const recent = BigInt(Math.ceil((settleTimeoutMs / 1000 + RECENT_MARGIN_SEC) * BLOCKS_PER_SECOND))
  return async () => {
    const head = await chain.getBlockNumber()
    return head > recent ? head - recent : 0n
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
