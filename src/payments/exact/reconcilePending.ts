import type { Hex, PublicClient } from 'viem'
import type { Logger } from '../../logger.js'
import type { Ledger } from '../../store/ledger.js'
import type { FundsGuard } from './fundsGuard.js'
import type { PayerSettlements } from './payerSettlements.js'
import { blockAtOrBefore, settlementOutcome } from './settlementOutcome.js'

export interface ReconcileDeps {
  ledger: Ledger
  chain: PublicClient
  /** Ends each decided row's funds reservation, so a landed transfer is not counted twice. */
  funds: FundsGuard
  /** Frees the payer's settlement slot of a decided row; a reverted settlement cools its payer down. */
  payerSettlements?: Pick<PayerSettlements, 'decided' | 'coolDown'>
  /** For rows written before the ledger recorded their recipient. */
  defaultPayTo: `0x${string}`
  logger?: Logger
}

export interface ReconcileResult {
  settled: number
  /** Rows closed without payment (`unpaid` when the caller was served, else `failed`). */
  unpaid: number
  stillPending: number
}

/**
 * Settles the ledger's pending rows from the chain, never by rebroadcasting. Each row's outcome is read
 * from what actually happened (`settlementOutcome`): the exact USDC transfer of its authorization in a
 * successful transaction settles it; a cancelled authorization, a reverted or missing transfer, or an
 * expiry closes it unpaid; anything else waits for the next round.
 */
export async function reconcilePending(deps: ReconcileDeps, nowSec: number): Promise<ReconcileResult> {
  const { ledger, chain, funds, logger } = deps
  const result: ReconcileResult = { settled: 0, unpaid: 0, stillPending: 0 }
  // Rows opened in the same minute share one block search (each is ~log2(height) block reads).
  const blocks = new Map<number, Promise<bigint>>()
  const findBlock = (timestampSec: number) => {
    const minute = Math.floor(timestampSec / 60) * 60
    let block = blocks.get(minute)
    if (block === undefined) {
      block = blockAtOrBefore(chain, minute)
      blocks.set(minute, block)
    }
    return block
  }
  for (const row of await ledger.pending()) {
    try {
      const outcome = await settlementOutcome(
        chain,
        {
          payer: row.payer as `0x${string}`,
          payTo: (row.payTo ?? deps.defaultPayTo) as `0x${string}`,
          nonce: row.nonce as Hex,
          amount: row.amount,
          txHash: (row.txHash ?? undefined) as Hex | undefined,
          validBefore: row.validBefore,
          openedAtSec: Math.floor(row.createdAt.getTime() / 1000),
        },
        nowSec,
        findBlock,
      )
      if (outcome.kind === 'paid') {
        await ledger.settle(row.id, outcome.txHash)
        await funds.settled(row.payer, row.nonce)
        await deps.payerSettlements?.decided(row.payer, row.validBefore, nowSec)
        result.settled++
      } else if (outcome.kind === 'unpaid') {
        await ledger.closeUnpaid(row.id, outcome.reason, outcome.txHash)
        await funds.release(row.payer, row.nonce)
        // Cool-down first: the payer's next settlement must not slip in between.
        if (outcome.reason === 'settlement_reverted') await deps.payerSettlements?.coolDown(row.payer, false)
        await deps.payerSettlements?.decided(row.payer, row.validBefore, nowSec)
        result.unpaid++
        if (row.served) {
          logger?.warn({
            msg: 'served without payment',
            id: row.id,
            payer: row.payer,
            reason: outcome.reason,
          })
        }
      } else {
        result.stillPending++
      }
    } catch (err) {
      logger?.warn({ msg: 'reconcile failed for a row; will retry', id: row.id, err })
      result.stillPending++
    }
  }
  return result
}
