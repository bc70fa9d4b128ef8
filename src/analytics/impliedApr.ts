import { fromWad, SECONDS_PER_YEAR, WAD } from '../chain/units.js'

/**
 * Simple annual rate implied by a Midnight unit price (protocols.md §7a): one unit pays one loan token at
 * maturity, so buying it at `P` (WAD, 0 < P ≤ 1e18) earns `1/P − 1` over the time left, and
 * `APR = (1/P − 1) × 31,536,000 / (maturity − now)`. A fraction (0.05 = 5 %), unrounded.
 *
 * Null when no rate exists: the market has matured (no time left) or the price is outside (0, 1e18].
 */

export function impliedApr(priceWad: bigint, maturitySec: number, nowSec: number): number | null {
  const secondsLeft = maturitySec - nowSec
  if (secondsLeft <= 0 || priceWad <= 0n || priceWad > WAD) return null
  const price = fromWad(priceWad)
  return ((1 / price - 1) * SECONDS_PER_YEAR) / secondsLeft
}
