import { type Hash, type TransactionReceipt, TransactionReceiptNotFoundError } from 'viem'

export class ReceiptTimeoutError extends Error {
  override readonly name = 'ReceiptTimeoutError'
}

/**
 * Waits for a transaction's receipt by asking for the receipt itself every `intervalMs`. viem's
 * waitForTransactionReceipt only asks when a new block number appears: if its first look comes a moment
 * before the node can serve the receipt (a loaded machine), and no later block follows (an automining
 * devnet where this transaction was the last one), it waits out its whole timeout for a transaction that
 * was mined long ago.
 */
export async function pollReceipt(
  client: { getTransactionReceipt(args: { hash: Hash }): Promise<TransactionReceipt> },
  hash: Hash,
  options: { intervalMs: number; timeoutMs: number },
): Promise<TransactionReceipt> {
  const deadline = Date.now() + options.timeoutMs
  for (;;) {
    try {
      return await client.getTransactionReceipt({ hash })
    } catch (err) {
      if (!(err instanceof TransactionReceiptNotFoundError)) throw err
    }
    if (Date.now() > deadline) {
      throw new ReceiptTimeoutError(`no receipt for ${hash} within ${options.timeoutMs} ms`)
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs))
  }
}
