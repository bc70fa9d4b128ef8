import type { Hex, PublicClient } from 'viem'
import type { Logger } from '../logger.js'
import type { Ledger } from '../store/ledger.js'
import { settlementOutcome } from './settlementOutcome.js'

export interface ReconcileResult {
  settled: number
  /** Rows closed without payment (`unpaid` when the caller was served, else `failed`). */
  unpaid: number
  stillPending: number
}

/**
 * Settles the ledger's pending rows from the chain, never by rebroadcasting. Each row's outcome is read
 * from what actually happened (`settlementOutcome`): the exact USDC transfer in a successful
 * transaction settles it; a cancelled authorization, a reverted or missing transfer, or an expiry
 * closes it unpaid; anything else waits for the next round. `defaultPayTo` serves rows written before
 * the ledger recorded their recipient.
 */
export async function reconcilePending(
  ledger: Ledger,
  chain: PublicClient,
  defaultPayTo: `0x${string}`,
  nowSec: number,
  logger?: Logger,
): Promise<ReconcileResult> {
  const result: ReconcileResult = { settled: 0, unpaid: 0, stillPending: 0 }
  for (const row of await ledger.pending()) {
    try {
      const outcome = await settlementOutcome(
        chain,
        {
          payer: row.payer as `0x${string}`,
          payTo: (row.payTo ?? defaultPayTo) as `0x${string}`,
          nonce: row.nonce as Hex,
          amount: row.amount,
          txHash: (row.txHash ?? undefined) as Hex | undefined,
          validBefore: row.validBefore,
          openedAtSec: Math.floor(row.createdAt.getTime() / 1000),
        },
        nowSec,
      )
      if (outcome.kind === 'paid') {
        await ledger.settle(row.id, outcome.txHash)
        result.settled++
      } else if (outcome.kind === 'unpaid') {
        await ledger.closeUnpaid(row.id, outcome.reason, outcome.txHash)
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
