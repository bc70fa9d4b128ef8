import { type Address, erc20Abi, type Hex, isAddressEqual, parseAbi, zeroAddress } from 'viem'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { cachePerClient } from '../../chain/cachePerClient.js'
import { erc20ReadAbi, multicall3BlockAbi } from '../../chain/lendingAbis.js'
import { type MidnightMarket, midnightAbi, midnightMarketId, midnightReadAbi } from '../../chain/midnight.js'
import { multiRead, viewCall } from '../../chain/multiRead.js'
import { ORACLE_PRICE_SCALE, WAD } from '../../chain/units.js'
import type { TokenMeta } from '../../market/lendingChain.js'
import type { BuilderEngine } from '../builderEngine.js'
import { BuildRefusedError, UnlistedTargetError } from '../builderErrors.js'
import { required } from '../required.js'

export const MIDNIGHT = BASE_ADDRESSES.MorphoMidnight

/** A Midnight market read from the chain (`toMarket`) whose id re-derives from it, with its tokens' metadata. */
export interface FixedMarket {
  /** Lowercase hex. */
  id: Hex
  market: MidnightMarket
  loanToken: TokenMeta
  /** Index-aligned with `market.collateralParams` (the index `supplyCollateral` takes). */
  collaterals: TokenMeta[]
  maturity: number
}

/** Verified markets never expire: a market's parameters are immutable and its id is their hash. */
const verified = cachePerClient<FixedMarket>(Number.POSITIVE_INFINITY)

/**
 * The market `marketId` names, or 422 naming `marketId`: `unknown_market` when Midnight holds no market
 * with that id (toMarket answers zeros) or what it answers does not hash back to the id, and
 * `unlisted_target` when its loan token or a collateral is outside the address book (no approve to it
 * could be built). First sight costs two multicalls; later requests none.
 */
export async function findFixedMarket(engine: BuilderEngine, marketId: string): Promise<FixedMarket> {
  const id = marketId.toLowerCase() as Hex
  const found = await verified(engine.chain).get(id, () => readMarket(engine, id))
  assertListedTokens(engine, found.market)
  return found
}

function assertListedTokens(engine: BuilderEngine, market: MidnightMarket): void {
  for (const token of [market.loanToken, ...market.collateralParams.map((c) => c.token)])
    if (!engine.book.has(token)) throw new UnlistedTargetError(token, 'marketId')
}

async function readMarket(engine: BuilderEngine, id: Hex): Promise<FixedMarket> {
  const r = await multiRead(engine.chain, {
    market: [viewCall(MIDNIGHT, midnightReadAbi, 'toMarket', [id])],
  })
  const market = required(r.market[0], `Midnight toMarket(${id})`) as MidnightMarket
  if (isAddressEqual(market.loanToken, zeroAddress) || midnightMarketId(market) !== id)
    throw new BuildRefusedError(
      'unknown_market',
      `${id} is not a Morpho Midnight market on this network (GET /v1/loan/fixed lists the open ones).`,
      'marketId',
      { marketId: id },
    )
  assertListedTokens(engine, market)
  const tokens = [market.loanToken, ...market.collateralParams.map((c) => c.token)]
  const m = await multiRead(engine.chain, {
    symbols: tokens.map((t) => viewCall(t, erc20ReadAbi, 'symbol', [])),
    decimals: tokens.map((t) => viewCall(t, erc20ReadAbi, 'decimals', [])),
  })
  const meta = tokens.map(
    (address, i): TokenMeta => ({
      address,
      symbol: required(m.symbols[i], `the symbol of ${address}`),
      decimals: required(m.decimals[i], `the decimals of ${address}`),
    }),
  )
  return {
    id,
    market,
    loanToken: meta[0] as TokenMeta,
    collaterals: meta.slice(1),
    maturity: Number(market.maturity),
  }
}

/** The index of `token` among the market's collaterals, or 422 `unknown_collateral` naming `field`. */
export function collateralIndex(m: FixedMarket, token: Address, field: string): number {
  const i = m.collaterals.findIndex((c) => isAddressEqual(c.address, token))
  if (i < 0)
    throw new BuildRefusedError(
      'unknown_collateral',
      `${token} is not a collateral of market ${m.id} (its collaterals: ${m.collaterals.map((c) => c.symbol).join(', ')}).`,
      field,
      { collaterals: m.collaterals.map((c) => c.address) },
    )
  return i
}

const oracleAbi = parseAbi(['function price() view returns (uint256)'])

/** The owner's live position and what a plan needs around it, read in ONE multicall. */
export interface FixedState {
  /** Chain time of the read block (what Midnight compares maturity with). */
  chainTime: number
  credit: bigint
  debt: bigint
  /** Per collateral index: the owner's amount, and the oracle price (loan per collateral × 1e36). */
  collateral: bigint[]
  prices: (bigint | null)[]
  /** Repaid units lenders can withdraw now (market-wide). */
  withdrawable: bigint
  /** Settlement fee per unit (WAD) at the current time to maturity. */
  fee: bigint
  /** Allowance to Midnight and balance of `pulls`, when the bundle pulls a token. */
  allowance: bigint
  balance: bigint
}

export async function readFixedState(
  engine: BuilderEngine,
  m: FixedMarket,
  owner: Address,
  pulls: Address | null,
): Promise<FixedState> {
  const ttm = BigInt(Math.max(0, m.maturity - engine.nowSec()))
  const r = await multiRead(engine.chain, {
    time: [viewCall(BASE_ADDRESSES.Multicall3, multicall3BlockAbi, 'getCurrentBlockTimestamp', [])],
    position: [viewCall(MIDNIGHT, midnightAbi, 'position', [m.id, owner])],
    collateral: m.market.collateralParams.map((_, i) =>
      viewCall(MIDNIGHT, midnightAbi, 'collateral', [m.id, owner, BigInt(i)]),
    ),
    prices: m.market.collateralParams.map((c) => viewCall(c.oracle, oracleAbi, 'price', [])),
    withdrawable: [viewCall(MIDNIGHT, midnightAbi, 'withdrawable', [m.id])],
    fee: [viewCall(MIDNIGHT, midnightAbi, 'settlementFee', [m.id, ttm])],
    allowance: pulls === null ? [] : [viewCall(pulls, erc20Abi, 'allowance', [owner, MIDNIGHT])],
    balance: pulls === null ? [] : [viewCall(pulls, erc20Abi, 'balanceOf', [owner])],
  })
  const [credit, , , , debt] = required(r.position[0], `Midnight position(${m.id}, ${owner})`)
  return {
    chainTime: Number(required(r.time[0], 'the block timestamp')),
    credit,
    debt,
    collateral: m.market.collateralParams.map((_, i) => required(r.collateral[i], `collateral #${i}`)),
    prices: m.market.collateralParams.map((_, i) => r.prices[i] ?? null),
    withdrawable: required(r.withdrawable[0], `Midnight withdrawable(${m.id})`),
    fee: required(r.fee[0], `Midnight settlementFee(${m.id})`),
    allowance: pulls === null ? 0n : required(r.allowance[0], 'the allowance to Midnight'),
    balance: pulls === null ? 0n : required(r.balance[0], 'the owner balance'),
  }
}

/**
 * Midnight's health bound: Σ collateral × oracle price / 1e36 × LLTV (rounded down at each step, as
 * `isHealthy` does). Null when an oracle with collateral behind it does not answer.
 */
export function maxDebtOf(m: FixedMarket, collateral: readonly bigint[], prices: readonly (bigint | null)[]) {
  let max = 0n
  for (const [i, c] of m.market.collateralParams.entries()) {
    const amount = collateral[i] ?? 0n
    if (amount === 0n) continue
    const price = prices[i]
    if (price === null || price === undefined) return null
    max += (((amount * price) / ORACLE_PRICE_SCALE) * c.lltv) / WAD
  }
  return max
}
