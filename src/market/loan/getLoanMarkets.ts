import { z } from 'zod'
import { morphoRateToApy, morphoSupplyApy, utilization } from '../../analytics/lendingApy.js'
import { address, atomicAmount, marketId } from '../../chain/fields.js'
import { fromWad } from '../../chain/units.js'
import type { LendingChain } from '../lendingChain.js'
import { significant } from '../numbers.js'
import { readAt, tokenRef, yearlyFraction } from '../readFields.js'

/** What the read answers (the route's output schema). */
export const loanMarketsOutput = z.object({
  block: readAt,
  markets: z.array(
    z.object({
      marketId,
      params: z.object({
        loanToken: address,
        collateralToken: address,
        oracle: address,
        irm: address,
        lltv: atomicAmount.describe('1e18-scaled'),
      }),
      loanAsset: tokenRef,
      collateralAsset: tokenRef.nullable(),
      borrowApy: yearlyFraction('Borrow APY'),
      supplyApy: yearlyFraction('Supply APY'),
      utilization: z.number().describe('totalBorrowAssets ÷ totalSupplyAssets'),
      fee: z.number().describe('Protocol fee, share of interest'),
      lltv: z.number().describe('Liquidation LTV as a fraction'),
      totalSupplyAssets: atomicAmount,
      totalBorrowAssets: atomicAmount,
      liquidity: atomicAmount.describe('totalSupplyAssets − totalBorrowAssets, atomic loan token'),
    }),
  ),
})

export type LoanMarket = LoanMarkets['markets'][number]
export type LoanMarkets = z.output<typeof loanMarketsOutput>

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
