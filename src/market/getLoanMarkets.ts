import type { Address, Hex } from 'viem'
import { morphoRateToApy, morphoSupplyApy, utilization } from '../analytics/lendingApy.js'
import { fromWad } from '../chain/units.js'
import type { LendingChain, TokenMeta } from './lendingChain.js'
import { significant } from './numbers.js'

export interface LoanMarket {
  marketId: Hex
  /** Morpho Blue MarketParams; the id is keccak256(abi.encode(params)), re-derived and asserted. */
  params: { loanToken: Address; collateralToken: Address; oracle: Address; irm: Address; lltv: string }
  loanAsset: TokenMeta
  /** Null for a market without collateral (an idle market). */
  collateralAsset: TokenMeta | null
  /** e^(borrowRateView × year) − 1, from the IRM at the market's state. */
  borrowApy: number
  /** borrowApy × utilization × (1 − fee). */
  supplyApy: number
  utilization: number
  /** Protocol fee, share of interest. */
  fee: number
  lltv: number
  totalSupplyAssets: string
  totalBorrowAssets: string
  /** totalSupplyAssets − totalBorrowAssets: what can be borrowed or withdrawn now (loan token, atomic). */
  liquidity: string
}

export interface LoanMarkets {
  /** The block every value was read at. */
  block: { number: number; timestamp: number }
  markets: LoanMarket[]
}

/**
 * The catalog's Morpho Blue markets at one block (see LendingChain): params, live borrow APY from the
 * IRM's borrowRateView for the market state, utilization and liquidity. Markets whose id does not
 * re-derive from their params were dropped (and logged) when the catalog was read.
 */
export async function getLoanMarkets(lending: LendingChain): Promise<LoanMarkets> {
  const snapshot = await lending.snapshot()
  const markets: LoanMarket[] = []
  for (const listed of snapshot.structure.listedMarkets) {
    const info = snapshot.structure.markets.get(listed.id)
    const state = snapshot.markets.get(listed.id)
    if (info === undefined || state === undefined) continue
    const borrowApy = morphoRateToApy(state.borrowRate)
    const used = utilization(state.totalBorrowAssets, state.totalSupplyAssets)
    const { params } = info
    markets.push({
      marketId: listed.id,
      params: { ...params, lltv: params.lltv.toString() },
      loanAsset: listed.loanAsset,
      collateralAsset: listed.collateralAsset,
      borrowApy: significant(borrowApy),
      supplyApy: significant(morphoSupplyApy(borrowApy, used, state.fee)),
      utilization: significant(used),
      fee: fromWad(state.fee),
      lltv: fromWad(params.lltv),
      totalSupplyAssets: state.totalSupplyAssets.toString(),
      totalBorrowAssets: state.totalBorrowAssets.toString(),
      liquidity: (state.totalSupplyAssets - state.totalBorrowAssets).toString(),
    })
  }
  return { block: { number: Number(snapshot.block.number), timestamp: snapshot.block.timestamp }, markets }
}
