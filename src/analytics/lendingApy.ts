/**
 * Lending-rate math: onchain rates in, yearly yields out (fractions: 0.05 = 5%). Pure: no I/O, no clock.
 *
 * Conventions (the protocols' own):
 * - Morpho Blue IRMs return a per-second borrow rate, WAD-scaled. Morpho accrues it continuously
 *   (`wTaylorCompounded`), so borrow APY = e^(rate × year) − 1, the limit of per-second compounding.
 * - A Morpho market's suppliers receive the borrowers' interest pro rata, minus the market fee:
 *   supply APY = borrow APY × utilization × (1 − fee), as Morpho's own API computes it.
 * - A MetaMorpho vault earns the supply APY of each market it supplies, weighted by the assets it has
 *   there; its curator fee (a share of the interest) comes off: net = gross × (1 − vault fee).
 * - Aave v3's `currentLiquidityRate` is an APR in ray (1e27), already net of the reserve factor; Aave
 *   compounds it per second: APY = (1 + APR / year)^year − 1.
 * - A plain ERC-4626 has no rate source: its APY is the growth of its share price over a window,
 *   annualized by compounding: (p1 / p0)^(year / Δt) − 1.
 */
import { fromRay, fromWad, SECONDS_PER_YEAR } from '../chain/units.js'

/** Morpho Blue: per-second borrow rate (WAD) → APY, e^(rate × year) − 1. */
export function morphoRateToApy(ratePerSecondWad: bigint): number {
  return Math.expm1(fromWad(ratePerSecondWad) * SECONDS_PER_YEAR)
}

/** Aave v3: an APR in ray (e.g. currentLiquidityRate) → APY, compounded every second of the year. */
export function aaveRateToApy(aprRay: bigint): number {
  const apr = fromRay(aprRay)
  return Math.expm1(SECONDS_PER_YEAR * Math.log1p(apr / SECONDS_PER_YEAR))
}

/** Borrowed share of supplied assets; 0 for an empty market. */
export function utilization(totalBorrowAssets: bigint, totalSupplyAssets: bigint): number {
  if (totalSupplyAssets === 0n) return 0
  return Number(totalBorrowAssets) / Number(totalSupplyAssets)
}

/** Morpho Blue supplier APY: borrow APY × utilization × (1 − market fee); `feeWad` is the WAD fee fraction. */
export function morphoSupplyApy(borrowApy: number, marketUtilization: number, feeWad: bigint): number {
  return borrowApy * marketUtilization * (1 - fromWad(feeWad))
}

/** Morpho's virtual shares and assets (SharesMathLib): they make the first deposit's price well defined. */
const VIRTUAL_SHARES = 1_000_000n
const VIRTUAL_ASSETS = 1n

/** Supply assets of `shares` in a Morpho market, rounded down as Morpho does (SharesMathLib.toAssetsDown). */
export function morphoSupplyAssets(
  shares: bigint,
  totalSupplyAssets: bigint,
  totalSupplyShares: bigint,
): bigint {
  return (shares * (totalSupplyAssets + VIRTUAL_ASSETS)) / (totalSupplyShares + VIRTUAL_SHARES)
}

/** What a vault holds in one market and what that market pays its suppliers. */
export interface MarketAllocation {
  /** Supply assets, in the vault asset's atomic units. */
  assets: bigint
  supplyApy: number
}

export interface VaultApy {
  /** Assets-weighted supply APY of the allocation, before the vault's fee. */
  grossApy: number
  /** After the vault's fee: gross × (1 − fee). */
  netApy: number
}

/**
 * A MetaMorpho vault's APY: the supply APYs of its markets weighted by the assets it has in each, then
 * its fee off. Null when it holds nothing anywhere (no allocation to weight; never a made-up 0).
 */
export function metaMorphoApy(
  allocations: readonly MarketAllocation[],
  vaultFeeWad: bigint,
): VaultApy | null {
  let total = 0
  let weighted = 0
  for (const { assets, supplyApy } of allocations) {
    const amount = Number(assets)
    total += amount
    weighted += amount * supplyApy
  }
  if (total === 0) return null
  const grossApy = weighted / total
  return { grossApy, netApy: grossApy * (1 - fromWad(vaultFeeWad)) }
}

/**
 * Annualized share-price growth: (p1 / p0)^(year / elapsed) − 1, from the assets one fixed amount of
 * shares converts to at two times. Null when the window is too short to annualize (below `minElapsedSec`)
 * or a price is zero.
 */
export function sharePriceApy(
  price0: bigint,
  price1: bigint,
  elapsedSec: number,
  minElapsedSec: number,
): number | null {
  if (price0 <= 0n || price1 <= 0n || !(elapsedSec >= minElapsedSec) || elapsedSec <= 0) return null
  // log1p of the relative change keeps small growth exact where p1 / p0 would round.
  return Math.expm1((SECONDS_PER_YEAR / elapsedSec) * Math.log1p(Number(price1 - price0) / Number(price0)))
}
