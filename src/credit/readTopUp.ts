import {
  type Address,
  erc20Abi,
  isAddressEqual,
  type PublicClient,
  parseAbi,
  parseEventLogs,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem'
import { UpstreamError } from '../errors.js'
import { TopUpError } from '../payments/topUpErrors.js'
import type { TopUp } from '../store/creditBook.js'
import { utilUsdValue } from './utilUsdValue.js'

/** The pool views a top-up's valuation reads. */
const poolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
])

/** Where a top-up is read: the UTIL token, where it must go, and the pool that values it. */
export interface TopUpTerms {
  util: Address
  usdc: Address
  recipient: Address
  /** A Uniswap v3 UTIL/USDC pool. */
  pool: Address
  /** A transfer whose block is this old or older is refused (the spec's 24 hours). */
  maxAgeSec: number
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/

/**
 * Reads the UTIL transfer a top-up names and values it, or refuses it with its code. The transfer is the sum
 * of the transaction's UTIL `Transfer` events from `payer` to the recipient (a router may split one payment
 * in several); the credit is its value at the pool's price **at the transfer's block** (the state after
 * that block: a historical `eth_call`, exact and free of any averaging; a node serving 24 hours of state is
 * required, see docs/credit.md). Reads only: it changes nothing.
 */
export async function readTopUp(
  chain: PublicClient,
  terms: TopUpTerms,
  txHash: string,
  payer: Address,
  nowSec: number,
): Promise<TopUp> {
  if (!TX_HASH.test(txHash)) throw new TopUpError('topup_malformed')
  const hash = txHash as `0x${string}`
  const receipt = await receiptOf(chain, hash)
  if (receipt.status !== 'success') throw new TopUpError('topup_reverted')

  const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).filter(
    (log) => isAddressEqual(log.address, terms.util),
  )
  if (transfers.length === 0) throw new TopUpError('topup_not_util')
  const toRecipient = transfers.filter((log) => isAddressEqual(log.args.to, terms.recipient))
  if (toRecipient.length === 0)
    throw new TopUpError('topup_wrong_recipient', undefined, { recipient: terms.recipient })
  const fromPayer = toRecipient.filter((log) => isAddressEqual(log.args.from, payer))
  if (fromPayer.length === 0) {
    throw new TopUpError('topup_wrong_sender', undefined, { sender: toRecipient[0]?.args.from, payer })
  }
  const utilAmount = fromPayer.reduce((sum, log) => sum + log.args.value, 0n)
  if (utilAmount === 0n)
    throw new TopUpError('topup_not_util', 'The transfer moved 0 UTIL. Nothing was charged.')

  const blockNumber = receipt.blockNumber
  const [block, price] = await Promise.all([
    rpc('the block of the top-up', () => chain.getBlock({ blockNumber })),
    rpc('the UTIL/USDC pool at the top-up block', () => poolPriceAt(chain, terms, blockNumber)),
  ])
  const blockTime = Number(block.timestamp)
  if (nowSec - blockTime >= terms.maxAgeSec) {
    throw new TopUpError('topup_too_old', undefined, { blockTime, maxAgeSec: terms.maxAgeSec })
  }
  return {
    txHash: hash,
    wallet: payer,
    utilAmount,
    usdAtomic: utilUsdValue(utilAmount, price.sqrtPriceX96, price.utilIsToken0),
    blockNumber,
    blockTime,
  }
}

/** The receipt, or why there is none: unknown, or known and not mined yet. */
async function receiptOf(chain: PublicClient, hash: `0x${string}`): Promise<TransactionReceipt> {
  try {
    return await chain.getTransactionReceipt({ hash })
  } catch (err) {
    if (!(err instanceof TransactionReceiptNotFoundError))
      throw new UpstreamError('chain RPC', 'receipt', { cause: err })
  }
  try {
    await chain.getTransaction({ hash })
  } catch (err) {
    if (err instanceof TransactionNotFoundError) throw new TopUpError('topup_unknown')
    throw new UpstreamError('chain RPC', 'transaction', { cause: err })
  }
  throw new TopUpError('topup_not_mined')
}

/** The pool's price at `blockNumber`, and which side UTIL is on (checked: the pool pairs UTIL and USDC). */
async function poolPriceAt(chain: PublicClient, terms: TopUpTerms, blockNumber: bigint) {
  const [slot0, token0, token1] = await Promise.all([
    chain.readContract({ address: terms.pool, abi: poolAbi, functionName: 'slot0', blockNumber }),
    chain.readContract({ address: terms.pool, abi: poolAbi, functionName: 'token0' }),
    chain.readContract({ address: terms.pool, abi: poolAbi, functionName: 'token1' }),
  ])
  const utilIsToken0 = isAddressEqual(token0, terms.util)
  const other = utilIsToken0 ? token1 : token0
  if (!(utilIsToken0 || isAddressEqual(token1, terms.util)) || !isAddressEqual(other, terms.usdc)) {
    throw new Error(`pool ${terms.pool} does not pair UTIL with USDC`)
  }
  if (slot0[0] === 0n) throw new Error(`pool ${terms.pool} had no price at block ${blockNumber}`)
  return { sqrtPriceX96: slot0[0], utilIsToken0 }
}

async function rpc<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (err) {
    throw new UpstreamError('chain RPC', what, { cause: err })
  }
}
