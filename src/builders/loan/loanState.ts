import { type Address, erc20Abi, type PublicClient, parseAbi } from 'viem'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { multicall3BlockAbi } from '../../chain/lendingAbis.js'
import { morphoAbi } from '../../chain/morpho.js'
import { CHAIN_UPSTREAM, multiRead, viewCall } from '../../chain/multiRead.js'
import { UpstreamError } from '../../errors.js'
import { required } from '../required.js'
import type { LoanMarket } from './findMorphoMarket.js'
import type { BorrowTotals, LoanPosition } from './loanMath.js'

const MORPHO = BASE_ADDRESSES.MorphoBlue

/**
 * Read-side extras of the loan builders. `accrueInterest` is declared `view` here on purpose: it is only
 * ever eth_call'ed inside the read multicall, where Multicall3 runs the calls in order in one context, so
 * the `market(id)` read after it sees the totals with interest accrued to that block's timestamp,
 * computed by Morpho's own `_accrueInterest` (the IRM's rate over the time since `lastUpdate`, the fee
 * shares aside). Nothing is ever sent.
 */
const morphoAccrueAbi = parseAbi([
  'struct MarketParams { address loanToken; address collateralToken; address oracle; address irm; uint256 lltv; }',
  'function accrueInterest(MarketParams marketParams) view',
])
/** Morpho's IOracle: loan-token units per collateral unit, scaled 1e36. */
const morphoOracleAbi = parseAbi(['function price() view returns (uint256)'])

/** What every loan builder reads, in one multicall at the latest block. */
export interface LoanState {
  /** The block read, and its timestamp: the moment `totals` (the debt) is accrued to. */
  blockNumber: bigint
  accruedTo: bigint
  totals: BorrowTotals
  position: LoanPosition
  /** The oracle's price, or null when it does not answer. */
  price: bigint | null
  /** The owner's allowance to Morpho and balance of the token the bundle pulls, when it pulls one. */
  allowance: bigint
  balance: bigint
}

/** The market's totals accrued to the evaluation time, by Morpho's accrueInterest (in order, see above). */
function accrualCalls(market: LoanMarket) {
  return {
    time: [viewCall(BASE_ADDRESSES.Multicall3, multicall3BlockAbi, 'getCurrentBlockTimestamp', [])],
    accrue: [viewCall(MORPHO, morphoAccrueAbi, 'accrueInterest', [market.params])],
    market: [viewCall(MORPHO, morphoAbi, 'market', [market.id])],
  } as const
}

type MarketRow = readonly [bigint, bigint, bigint, bigint, bigint, bigint]

/** The totals, checked to be accrued to `at`: an accrual that reverted left `lastUpdate` behind. */
function accruedTotals(row: MarketRow | undefined, at: bigint, market: LoanMarket): BorrowTotals {
  const [totalSupplyAssets, , totalBorrowAssets, totalBorrowShares, lastUpdate] = required(
    row,
    `Morpho market(${market.id})`,
  )
  if (lastUpdate !== at)
    throw new UpstreamError(
      CHAIN_UPSTREAM,
      `Morpho could not accrue interest on ${market.label} (market ${market.id}) to ${at}`,
    )
  return { totalSupplyAssets, totalBorrowAssets, totalBorrowShares }
}

/**
 * The live state of `owner` in `market` in ONE multicall at the latest block: the market accrued to the
 * block's timestamp, the position, the oracle price, and the allowance to Morpho and the balance of
 * `pulls` (the token the bundle spends; null when it spends none). The calls run in the order listed.
 */
export async function readLoanState(
  market: LoanMarket,
  chain: PublicClient,
  owner: Address,
  pulls: Address | null,
): Promise<LoanState> {
  const token = pulls ?? market.loanToken.address
  const r = await multiRead(chain, {
    block: [viewCall(BASE_ADDRESSES.Multicall3, multicall3BlockAbi, 'getBlockNumber', [])],
    ...accrualCalls(market),
    position: [viewCall(MORPHO, morphoAbi, 'position', [market.id, owner])],
    price: [viewCall(market.params.oracle, morphoOracleAbi, 'price', [])],
    allowance: pulls === null ? [] : [viewCall(token, erc20Abi, 'allowance', [owner, MORPHO])],
    balance: pulls === null ? [] : [viewCall(token, erc20Abi, 'balanceOf', [owner])],
  })
  const accruedTo = required(r.time[0], 'the block timestamp')
  const [, borrowShares, collateral] = required(r.position[0], `Morpho position(${market.id}, ${owner})`)
  return {
    blockNumber: required(r.block[0], 'the block number'),
    accruedTo,
    totals: accruedTotals(r.market[0], accruedTo, market),
    position: { collateral, borrowShares },
    price: r.price[0] ?? null,
    allowance: pulls === null ? 0n : required(r.allowance[0], 'the allowance to Morpho'),
    balance: pulls === null ? 0n : required(r.balance[0], 'the owner balance'),
  }
}

/**
 * The market's totals with interest accrued to `time` (a later moment, e.g. the quote's expiry): the
 * same accrual evaluated with block.timestamp = `time` (an eth_call override), i.e. what Morpho computes
 * when the next interaction lands then and nobody else has touched the market before.
 */
export async function readTotalsAt(
  market: LoanMarket,
  chain: PublicClient,
  time: bigint,
): Promise<BorrowTotals> {
  const r = await multiRead(chain, accrualCalls(market), undefined, time)
  return accruedTotals(r.market[0], time, market)
}
