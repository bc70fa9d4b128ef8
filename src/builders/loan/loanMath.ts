/**
 * Morpho Blue's share and health arithmetic (SharesMathLib, MathLib, Morpho._isHealthy; protocols.md §2),
 * reproduced to the wei with the same rounding, so a builder predicts exactly what the contract computes.
 */

import { fromWad, ORACLE_PRICE_SCALE, WAD } from '../../chain/units.js'

/** SharesMathLib's virtual shares and assets (inflation-attack guard). */
const VIRTUAL_SHARES = 10n ** 6n
const VIRTUAL_ASSETS = 1n

const mulDivDown = (x: bigint, y: bigint, d: bigint) => (x * y) / d
const mulDivUp = (x: bigint, y: bigint, d: bigint) => (x * y + (d - 1n)) / d

export const toSharesDown = (assets: bigint, totalAssets: bigint, totalShares: bigint) =>
  mulDivDown(assets, totalShares + VIRTUAL_SHARES, totalAssets + VIRTUAL_ASSETS)
export const toSharesUp = (assets: bigint, totalAssets: bigint, totalShares: bigint) =>
  mulDivUp(assets, totalShares + VIRTUAL_SHARES, totalAssets + VIRTUAL_ASSETS)
export const toAssetsUp = (shares: bigint, totalAssets: bigint, totalShares: bigint) =>
  mulDivUp(shares, totalAssets + VIRTUAL_ASSETS, totalShares + VIRTUAL_SHARES)

/** A market's borrow side (Morpho `market(id)`), accrued to some moment. */
export interface BorrowTotals {
  totalSupplyAssets: bigint
  totalBorrowAssets: bigint
  totalBorrowShares: bigint
}

/** A borrower's position (Morpho `position(id, owner)`), the collateral and borrow side. */
export interface LoanPosition {
  collateral: bigint
  borrowShares: bigint
}

export interface LoanHealth {
  /** The debt in loan-token units: borrow shares to assets, rounded up as Morpho does. */
  debt: bigint
  /** collateral × price / 1e36 × lltv / 1e18, rounded down as Morpho does; null without a price. */
  maxBorrow: bigint | null
  /** maxBorrow / debt in WAD (rounded down); null without debt (infinitely healthy) or without a price. */
  healthWad: bigint | null
  /** Morpho's `_isHealthy`, made strict: false when maxBorrow ≤ debt (health ≤ 1) with some debt. */
  healthy: boolean
}

/**
 * Health of `position` in a market at `totals`: what Morpho's `_isHealthy` compares (maxBorrow ≥ debt),
 * as a factor. A position without debt is healthy whatever the price.
 */
export function loanHealth(
  position: LoanPosition,
  totals: BorrowTotals,
  price: bigint | null,
  lltv: bigint,
): LoanHealth {
  const debt = toAssetsUp(position.borrowShares, totals.totalBorrowAssets, totals.totalBorrowShares)
  const maxBorrow =
    price === null ? null : mulDivDown(mulDivDown(position.collateral, price, ORACLE_PRICE_SCALE), lltv, WAD)
  if (position.borrowShares === 0n) return { debt, maxBorrow, healthWad: null, healthy: true }
  if (maxBorrow === null) return { debt, maxBorrow, healthWad: null, healthy: false }
  return { debt, maxBorrow, healthWad: mulDivDown(maxBorrow, WAD, debt), healthy: maxBorrow > debt }
}

/** Morpho `borrow(assets, 0)`: the shares minted (rounded up) and the market after. */
export function afterBorrow(position: LoanPosition, totals: BorrowTotals, assets: bigint) {
  const shares = toSharesUp(assets, totals.totalBorrowAssets, totals.totalBorrowShares)
  return {
    shares,
    position: { ...position, borrowShares: position.borrowShares + shares },
    totals: {
      ...totals,
      totalBorrowAssets: totals.totalBorrowAssets + assets,
      totalBorrowShares: totals.totalBorrowShares + shares,
    },
  }
}

/** Morpho `repay(assets, 0)`: the shares burned (rounded down) and the market after. */
export function afterRepayAssets(position: LoanPosition, totals: BorrowTotals, assets: bigint) {
  const shares = toSharesDown(assets, totals.totalBorrowAssets, totals.totalBorrowShares)
  return {
    shares,
    position: { ...position, borrowShares: position.borrowShares - shares },
    totals: {
      ...totals,
      // Morpho's zeroFloorSub: rounding can make the repaid assets exceed the market's total.
      totalBorrowAssets: totals.totalBorrowAssets > assets ? totals.totalBorrowAssets - assets : 0n,
      totalBorrowShares: totals.totalBorrowShares - shares,
    },
  }
}

/** Morpho `repay(0, borrowShares)`: every share burned, the assets they are worth (rounded up) repaid. */
export function afterRepayShares(position: LoanPosition, totals: BorrowTotals) {
  const shares = position.borrowShares
  const assets = toAssetsUp(shares, totals.totalBorrowAssets, totals.totalBorrowShares)
  return {
    shares,
    assets,
    position: { ...position, borrowShares: 0n },
    totals: {
      ...totals,
      totalBorrowAssets: totals.totalBorrowAssets > assets ? totals.totalBorrowAssets - assets : 0n,
      totalBorrowShares: totals.totalBorrowShares - shares,
    },
  }
}

/** A health factor as a plain number for the response (the WAD stays exact in refusals' details). */
export function healthNumber(healthWad: bigint | null): number | null {
  return healthWad === null ? null : fromWad(healthWad)
}
