import {
  type Address,
  type PublicClient,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem'
import type { Logger } from '../logger.js'
import type { PropAction, PropBook } from '../store/propBook.js'
import { actionResult } from './createPropDesk.js'

/** An unfinished action younger than this may still be running on its instance: left alone. */
export const PROP_STALE_MS = 120_000

/**
 * Finishes the desk actions a restart (or a lost confirmation) left `claimed` or `submitted`, from the chain
 * and never by sending again: every desk transaction was recorded before it was broadcast. All planned
 * transactions mined and successful: executed. One reverted, dropped, or fewer sent than planned (the
 * instance stopped between steps): failed, and the member's transfer is free for another try. A transaction
 * still pending waits for the next round. The book's writes are conditional on the row being unfinished, so
 * rounds on several instances agree.
 */
export async function reconcileProp(
  deps: { chain: PublicClient; book: PropBook; desk: Address | undefined; logger?: Logger },
  nowMs: number,
): Promise<{ executed: number; failed: number }> {
  const result = { executed: 0, failed: 0 }
  for (const row of await deps.book.unfinished()) {
    if (nowMs - row.createdAt.getTime() < PROP_STALE_MS) continue
    const outcome = await outcomeOf(deps.chain, row)
    if (outcome === 'pending') continue
    if (outcome.kind === 'executed' && deps.desk !== undefined) {
      const kind = row.action === 'trade.open' ? 'open' : 'close'
      await deps.book.finish(row.id, {
        ...actionResult({ kind }, outcome.receipts, deps.desk),
        reconciled: true,
      })
      result.executed++
    } else {
      await deps.book.fail(row.id, outcome.kind === 'failed' ? outcome.why : 'no desk key to attribute it')
      result.failed++
    }
    deps.logger?.info({ msg: 'prop action reconciled', id: row.id, outcome: outcome.kind })
  }
  return result
}

async function outcomeOf(
  chain: PublicClient,
  row: PropAction,
): Promise<
  'pending' | { kind: 'executed'; receipts: TransactionReceipt[] } | { kind: 'failed'; why: string }
> {
  const receipts: TransactionReceipt[] = []
  for (const hash of row.deskTxs) {
    let receipt: TransactionReceipt
    try {
      receipt = await chain.getTransactionReceipt({ hash })
    } catch (err) {
      if (!(err instanceof TransactionReceiptNotFoundError)) throw err
      try {
        await chain.getTransaction({ hash })
        return 'pending'
      } catch (lookup) {
        if (lookup instanceof TransactionNotFoundError)
          return { kind: 'failed', why: `desk transaction ${hash} was dropped` }
        throw lookup
      }
    }
    if (receipt.status !== 'success') return { kind: 'failed', why: `desk transaction ${hash} reverted` }
    receipts.push(receipt)
  }
  if (receipts.length < row.plannedSteps) {
    return {
      kind: 'failed',
      why: `interrupted after ${receipts.length} of ${row.plannedSteps} desk transactions`,
    }
  }
  return { kind: 'executed', receipts }
}
