import {
  type Address,
  erc20Abi,
  isAddressEqual,
  type PublicClient,
  parseEventLogs,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem'

/** A token transfer a caller presents by its transaction hash (a credit top-up, a prop desk payment). */
export interface PresentedTransfer {
  /** The sum of the transaction's `Transfer` events of `token` from `from` to `to` (base units). */
  amount: bigint
  blockNumber: bigint
  /** The block's timestamp, unix seconds. */
  blockTime: number
}

/** Why a presented transaction is not the transfer asked for; each caller maps these to its own error codes. */
export type TransferProblem =
  | 'malformed'
  | 'unknown'
  | 'not_mined'
  | 'reverted'
  | 'wrong_token'
  | 'wrong_destination'
  | 'wrong_sender'
  | 'too_old'

/** What a presented transfer must be. */
export interface ExpectedTransfer {
  token: Address
  to: Address
  /** The wallet that must have sent it (the one that signed the request's payment). */
  from: Address
  /** A transfer whose block is this old or older is refused. */
  maxAgeSec: number
  nowSec: number
}

/** The chain could not be read: a fault on our side, never the caller's. */
export class ChainReadError extends Error {
  override readonly name = 'ChainReadError'
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/

/**
 * Reads the transfer a caller's transaction hash names, or says why it is not the one expected. Which
 * problem comes first matters for the answer: a transfer of the token to the right place but from another
 * wallet is `wrong_sender`, so a caller who presents someone else's hash learns only that. Reads only.
 */
export async function readUtilTransfer(
  chain: PublicClient,
  txHash: string,
  expected: ExpectedTransfer,
): Promise<PresentedTransfer | { problem: TransferProblem; sender?: Address }> {
  if (!TX_HASH.test(txHash)) return { problem: 'malformed' }
  const hash = txHash as `0x${string}`
  const receipt = await receiptOf(chain, hash)
  if (typeof receipt === 'string') return { problem: receipt }
  if (receipt.status !== 'success') return { problem: 'reverted' }
  const ofToken = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).filter((log) =>
    isAddressEqual(log.address, expected.token),
  )
  if (ofToken.length === 0) return { problem: 'wrong_token' }
  const toDestination = ofToken.filter((log) => isAddressEqual(log.args.to, expected.to))
  if (toDestination.length === 0) return { problem: 'wrong_destination' }
  const fromSender = toDestination.filter((log) => isAddressEqual(log.args.from, expected.from))
  if (fromSender.length === 0) return { problem: 'wrong_sender', sender: toDestination[0]?.args.from }
  const amount = fromSender.reduce((sum, log) => sum + log.args.value, 0n)
  if (amount === 0n) return { problem: 'wrong_token' }
  let blockTime: number
  try {
    blockTime = Number((await chain.getBlock({ blockNumber: receipt.blockNumber })).timestamp)
  } catch (err) {
    throw new ChainReadError('the block of the transfer', { cause: err })
  }
  if (expected.nowSec - blockTime >= expected.maxAgeSec) return { problem: 'too_old' }
  return { amount, blockNumber: receipt.blockNumber, blockTime }
}

/** The receipt, or why there is none: unknown, or known and not mined yet. */
async function receiptOf(
  chain: PublicClient,
  hash: `0x${string}`,
): Promise<TransactionReceipt | 'unknown' | 'not_mined'> {
  try {
    return await chain.getTransactionReceipt({ hash })
  } catch (err) {
    if (!(err instanceof TransactionReceiptNotFoundError)) throw new ChainReadError('receipt', { cause: err })
  }
  try {
    await chain.getTransaction({ hash })
  } catch (err) {
    if (err instanceof TransactionNotFoundError) return 'unknown'
    throw new ChainReadError('transaction', { cause: err })
  }
  return 'not_mined'
}
