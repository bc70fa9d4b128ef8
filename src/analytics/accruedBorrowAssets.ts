import { WAD } from '../chain/units.js'

/** SharesMathLib's virtual shares and assets (Morpho Blue): they make the first share expensive to inflate. */
const VIRTUAL_SHARES = 10n ** 6n
const VIRTUAL_ASSETS = 1n

/** A Morpho Blue market's stored borrow totals (what `market(id)` returns) and the IRM's rate for them. */
export interface BorrowSide {
  totalBorrowAssets: bigint
  totalBorrowShares: bigint
  /** Unix seconds of the last accrual (`market.lastUpdate`). */
  lastUpdate: bigint
  /** Per-second borrow rate, WAD: the IRM's `borrowRateView` for the stored market at time `at`. */
  borrowRate: bigint
}

/**
 * Morpho Blue's `_accrueInterest` replayed off-chain: the market's total borrow assets at unix time `at`,
 * `totalBorrowAssets + totalBorrowAssets.wMulDown(borrowRate.wTaylorCompounded(at − lastUpdate))`.
 * Morpho compounds with the third-order Taylor expansion of e^(rt) − 1, rounded down at each step, and so
 * does this. `at` before `lastUpdate` accrues nothing.
 */
export function accruedTotalBorrowAssets(side: BorrowSide, at: bigint): bigint {
  const elapsed = at > side.lastUpdate ? at - side.lastUpdate : 0n
  if (elapsed === 0n || side.totalBorrowAssets === 0n) return side.totalBorrowAssets
  const first = side.borrowRate * elapsed
  const second = (first * first) / (2n * WAD)
  const third = (second * first) / (3n * WAD)
  return side.totalBorrowAssets + (side.totalBorrowAssets * (first + second + third)) / WAD
}

/**
 * A borrower's debt in loan-token atomic units at time `at`: their borrow shares converted with the
 * accrued totals, rounded up (SharesMathLib.toAssetsUp, what `repay` by shares charges).
 */
export function accruedBorrowAssets(borrowShares: bigint, side: BorrowSide, at: bigint): bigint {
  if (borrowShares === 0n) return 0n
  const assets = accruedTotalBorrowAssets(side, at) + VIRTUAL_ASSETS
  const shares = side.totalBorrowShares + VIRTUAL_SHARES
  return (borrowShares * assets + shares - 1n) / shares
}
