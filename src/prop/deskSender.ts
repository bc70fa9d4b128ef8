import {
  type Address,
  createWalletClient,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  type TransactionReceipt,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { pollReceipt } from '../chain/pollReceipt.js'

/** One step of a desk action: a builder's step with the gas limit its simulation suggested. */
export interface DeskStep {
  to: Address
  data: Hex
  value: bigint
  gas: bigint
}

/** A desk transaction that was mined and reverted: nothing after it is sent. */
export class DeskRevertError extends Error {
  override readonly name = 'DeskRevertError'
  constructor(readonly hash: Hex) {
    super(`desk transaction ${hash} reverted`)
  }
}

export interface DeskSender {
  address: Address
  /**
   * Signs and broadcasts `steps` in order from the desk's key, each after the one before is mined: every
   * hash goes to `recorded` (a durable row) before its transaction leaves, so a restart finds it. Actions
   * are serialized: one desk key, one nonce sequence.
   */
  send(steps: readonly DeskStep[], recorded: (hash: Hex) => Promise<void>): Promise<TransactionReceipt[]>
}

export function createDeskSender(
  chain: PublicClient,
  rpcUrl: string,
  privateKey: Hex,
  receipts: { intervalMs: number; timeoutMs: number },
): DeskSender {
  const account = privateKeyToAccount(privateKey)
  const wallet = createWalletClient({ account, chain: base, transport: http(rpcUrl) })
  let queue: Promise<unknown> = Promise.resolve()
  const sendAll = async (steps: readonly DeskStep[], recorded: (hash: Hex) => Promise<void>) => {
    const mined: TransactionReceipt[] = []
    for (const step of steps) {
      const request = await wallet.prepareTransactionRequest({
        account,
        chain: base,
        to: step.to,
        data: step.data,
        value: step.value,
        gas: step.gas,
      })
      const serializedTransaction = await wallet.signTransaction(request)
      const hash = keccak256(serializedTransaction)
      await recorded(hash)
      await wallet.sendRawTransaction({ serializedTransaction })
      const receipt = await pollReceipt(chain, hash, receipts)
      if (receipt.status !== 'success') throw new DeskRevertError(hash)
      mined.push(receipt)
    }
    return mined
  }
  return {
    address: account.address,
    send(steps, recorded) {
      const run = queue.then(
        () => sendAll(steps, recorded),
        () => sendAll(steps, recorded),
      )
      queue = run.catch(() => undefined)
      return run
    },
  }
}
