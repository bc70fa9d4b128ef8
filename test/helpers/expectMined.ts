import type { Hex, PublicClient } from 'viem'
import { expect } from 'vitest'

/**
 * Waits for a transaction and expects it to have succeeded; a revert fails the test with its reason,
 * found by replaying the transaction on the state it ran on (the automining devnet mines one per block).
 */
export async function expectMined(
  chain: Pick<PublicClient, 'waitForTransactionReceipt' | 'getTransaction' | 'call'>,
  hash: Hex,
) {
  const receipt = await chain.waitForTransactionReceipt({ hash })
  let limit: bigint | undefined
  const why =
    receipt.status === 'success'
      ? ''
      : await chain
          .getTransaction({ hash })
          .then((tx) => {
            limit = tx.gas
            return chain.call({
              account: tx.from,
              to: tx.to,
              data: tx.input,
              value: tx.value,
              gas: tx.gas,
              blockNumber: receipt.blockNumber - 1n,
            })
          })
          .then(
            () => `replayed on the previous block without a revert (gas used ${receipt.gasUsed} of ${limit})`,
            (err: unknown) => (err as Error).message.split('\n').slice(0, 3).join(' '),
          )
  expect(receipt.status, why).toBe('success')
  return receipt
}
