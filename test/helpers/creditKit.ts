import { wrapFetchWithPayment } from '@x402/fetch'
import { erc20Abi, type Hex, type PublicClient, parseAbi, parseSignature } from 'viem'
import { DEVNET_UTIL_TOKEN } from '../../src/chain/addresses.js'
import { USDC } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { uniswapV3PoolAddress } from '../../src/chain/uniswapV3Pool.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { USDC_SETTLEMENT_ABI } from '../../src/payments/exact/settlementOutcome.js'
import { devnetWallet, RECEIPT } from './chainChecks.js'
import { sendTx } from './expectMined.js'
import type { payerClient, ServiceWorld } from './serviceWorld.js'

export const UTIL = DEVNET_UTIL_TOKEN
/** The devnet's UTIL/USDC pool (0.3%), which values top-ups. */
export const UTIL_POOL = uniswapV3PoolAddress(UTIL, USDC, 3000)
/** Holds UTIL from the devnet build (every demo account does) and funds the test wallets with it. */
const UTIL_FUNDER = demoAccounts[5]?.privateKey as Hex

export type CreditWallet = Awaited<ReturnType<ServiceWorld['freshWallet']>>

/** One funder per file: its transactions are serialized so nonces never collide. */
let funding: Promise<unknown> = Promise.resolve()

/** A fresh wallet holding `usdc` atomic USDC, `util` UTIL base units and gas for a few transfers. */
export async function utilWallet(sw: ServiceWorld, usdc: bigint, util: bigint): Promise<CreditWallet> {
  const wallet = await sw.freshWallet(usdc, 10n ** 16n)
  if (util > 0n) await transferUtil(sw.chain, UTIL_FUNDER, wallet.account.address, util)
  return wallet
}

/** A UTIL transfer from `privateKey`, mined; its hash. */
export async function transferUtil(chain: PublicClient, privateKey: Hex, to: `0x${string}`, amount: bigint) {
  const send = async () => {
    const hash = await devnetWallet(chain, privateKey).writeContract({
      address: UTIL,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to, amount],
    })
    await pollReceipt(chain, hash, RECEIPT)
    return hash
  }
  const sent = funding.then(send, send)
  funding = sent.catch(() => undefined)
  return sent
}

const POOL_ABI = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function observe(uint32[] secondsAgos) view returns (int56[] tickCumulatives, uint160[] secondsPerLiquidityCumulativeX128s)',
  'function observations(uint256 index) view returns (uint32 blockTimestamp, int56 tickCumulative, uint160 secondsPerLiquidityCumulativeX128, bool initialized)',
])

/**
 * What a top-up in `block` is credited, from the chain independently of the service: the least of its USD
 * value at the spot price after the block before and after `block`, and at the pool oracle's mean tick over
 * the 30 minutes up to the block before, or over as far back as its observations reach (a state built minutes
 * ago); floating point; the credit's depth cap does not bind for these amounts.
 */
export async function expectedCreditUsd(chain: PublicClient, util: bigint, block: bigint): Promise<number> {
  const at = { address: UTIL_POOL, abi: POOL_ABI, blockNumber: block - 1n } as const
  const [slot0, before] = await Promise.all([
    chain.readContract({ ...at, functionName: 'slot0' }),
    chain.getBlock({ blockNumber: block - 1n }),
  ])
  const [, , index, cardinality] = slot0
  const next = await chain.readContract({
    ...at,
    functionName: 'observations',
    args: [BigInt((index + 1) % cardinality)],
  })
  const oldest = next[3]
    ? next
    : await chain.readContract({ ...at, functionName: 'observations', args: [0n] })
  const window = Math.min(1800, Number(before.timestamp) - oldest[0])
  const [tickCumulatives] = await chain.readContract({ ...at, functionName: 'observe', args: [[window, 0]] })
  const meanTick = Math.floor(
    Number((tickCumulatives[1] as bigint) - (tickCumulatives[0] as bigint)) / window,
  )
  // USDC sorts first: the tick prices UTIL (token1) per USDC (token0), in raw units.
  const byOracle = Number(util) / 1.0001 ** meanTick / 1e6
  const spots = await Promise.all([utilUsdAt(chain, util, block - 1n), utilUsdAt(chain, util, block)])
  return Math.min(byOracle, ...spots)
}

/**
 * The USD value of `util` base units at the pool's price as of `blockNumber`, computed independently of the
 * service (floating point from the pool's raw slot0; USDC sorts first, so the price is UTIL per USDC).
 */
export async function utilUsdAt(
  chain: PublicClient,
  util: bigint,
  block: bigint | 'latest',
): Promise<number> {
  const [sqrtPriceX96] = await chain.readContract({
    address: UTIL_POOL,
    abi: POOL_ABI,
    functionName: 'slot0',
    ...(block === 'latest' ? { blockTag: 'latest' as const } : { blockNumber: block }),
  })
  const utilPerUsdcRaw = (Number(sqrtPriceX96) / 2 ** 96) ** 2
  return Number(util) / utilPerUsdcRaw / 1e6
}

/**
 * Moves the pool's price by rewriting slot0's sqrtPriceX96 (the low 160 bits of storage slot 0): the value
 * of a transfer made before differs from the value now, so "at that block" is observable.
 */
export async function setPoolSqrtPrice(chain: PublicClient, sqrtPriceX96: bigint) {
  // anvil writes storage into the latest block's state: a block of its own keeps the one before intact.
  await chain.request({ method: 'evm_mine' as never, params: [] as never })
  const slot = await chain.getStorageAt({ address: UTIL_POOL, slot: '0x0', blockTag: 'latest' })
  const word = BigInt(slot ?? '0x0')
  const mask = (1n << 160n) - 1n
  const next = (word & ~mask) | sqrtPriceX96
  await chain.request({
    method: 'anvil_setStorageAt' as never,
    params: [UTIL_POOL, '0x0', `0x${next.toString(16).padStart(64, '0')}`] as never,
  })
  await chain.request({ method: 'evm_mine' as never, params: [] as never })
}

export async function poolSqrtPrice(chain: PublicClient): Promise<bigint> {
  const [sqrtPriceX96] = await chain.readContract({
    address: UTIL_POOL,
    abi: POOL_ABI,
    functionName: 'slot0',
  })
  return sqrtPriceX96
}

/** Whether USDC records the authorization as used (or cancelled). */
export function authorizationUsed(chain: PublicClient, wallet: `0x${string}`, nonce: Hex) {
  return chain.readContract({
    address: USDC,
    abi: USDC_SETTLEMENT_ABI,
    functionName: 'authorizationState',
    args: [wallet, nonce],
  })
}

/** The official client paying with `headers` added to every request (the way an agent sends X-UTIL-*). */
export function paidFetch(who: ReturnType<typeof payerClient>, headers: Record<string, string> = {}) {
  const paying = wrapFetchWithPayment(fetch, who.client)
  return (url: string, init: RequestInit = {}) =>
    paying(url, { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } })
}

export interface CreditStatementBody {
  balanceUsd: number
  balanceAtomic: string
  topUps: { txHash: string; utilAmount: string; creditedUsd: number; blockNumber: number }[]
  debits: { route: string; amountUsd: number; status: string; nonce: string }[]
  terms: Record<string, unknown>
}

export async function creditOf(url: string, wallet: `0x${string}`): Promise<CreditStatementBody> {
  const res = await fetch(`${url}/v1/util-credit/${wallet}`)
  if (res.status !== 200) throw new Error(`util-credit answered ${res.status}: ${await res.text()}`)
  return (await res.json()) as CreditStatementBody
}

const TRANSFER_WITH_AUTHORIZATION = parseAbi([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
])

/** An EIP-3009 authorization's fields as a payment payload carries them (decimal strings). */
export interface SignedAuthorization {
  from: `0x${string}`
  to: `0x${string}`
  value: string
  validAfter: string
  validBefore: string
  nonce: Hex
}

/**
 * Submits a signed USDC authorization onchain from `senderKey` (anyone holding it can: a third party, or
 * the payer itself) and expects it mined.
 */
export async function submitAuthorization(
  chain: PublicClient,
  senderKey: Hex,
  a: SignedAuthorization,
  signature: Hex,
): Promise<void> {
  const sig = parseSignature(signature)
  await sendTx(chain, devnetWallet(chain, senderKey), {
    address: USDC,
    abi: TRANSFER_WITH_AUTHORIZATION,
    functionName: 'transferWithAuthorization',
    args: [
      a.from,
      a.to,
      BigInt(a.value),
      BigInt(a.validAfter),
      BigInt(a.validBefore),
      a.nonce,
      Number(sig.v),
      sig.r,
      sig.s,
    ],
  })
}
