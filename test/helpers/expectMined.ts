import type {
  Abi,
  Account,
  Address,
  Chain,
  Hex,
  PublicClient,
  TransactionReceipt,
  Transport,
  WalletClient,
} from 'viem'
import { expect } from 'vitest'
import { pollReceipt } from '../../src/chain/pollReceipt.js'

type ReceiptReader = Pick<PublicClient, 'getTransactionReceipt' | 'getTransaction' | 'call'>

/** A contract call named by strings (the tests' ABIs are often parsed at run time). */
export interface ContractCall {
  address: Address
  abi: Abi | readonly unknown[]
  functionName: string
  args?: readonly unknown[]
  value?: bigint
}

/**
 * Waits for a transaction and expects it to have succeeded; a revert fails the test with its reason,
 * found by replaying the transaction on the state it ran on (the automining devnet mines one per block).
 */
export async function expectMined(
  chain: ReceiptReader,
  sent: Hex | Promise<Hex>,
): Promise<TransactionReceipt> {
  const hash = await sent
  // Polled for directly, not with viem's waitForTransactionReceipt, which only looks again on a new
  // block: on a loaded machine its first look can come too early, and an automining devnet mines no
  // later block (an Aave test once waited out its whole timeout that way).
  const receipt = await pollReceipt(chain, hash, { intervalMs: 20, timeoutMs: 20_000 })
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

/** Sends `call` from `wallet` and expects it mined successfully; returns the receipt. */
export async function sendTx(
  chain: ReceiptReader,
  wallet: Pick<WalletClient<Transport, Chain, Account>, 'writeContract'>,
  call: ContractCall,
): Promise<TransactionReceipt> {
  return expectMined(chain, wallet.writeContract(call as Parameters<typeof wallet.writeContract>[0]))
}
