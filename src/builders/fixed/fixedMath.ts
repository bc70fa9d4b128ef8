/**
 * Pure math of the fixed-rate (Morpho Midnight) builders: the book walk, the take rounding and the APR.
 * One unit pays one loan token at maturity; a price P (WAD, ≤ 1e18) is loan-token assets now per unit.
 */

import { SECONDS_PER_YEAR, WAD } from '../../chain/units.js'

const mulDivUp = (x: bigint, y: bigint, d: bigint) => (x * y + d - 1n) / d
const minOf = (a: bigint, b: bigint): bigint => (a < b ? a : b)

/** One offer of the side being taken, with the taker's price (the offer's tick price, fee applied). */
export interface BookOffer {
  /** Taker price, WAD: a bid's seller price (P − fee), an ask's buyer price (P + fee). */
  price: bigint
  /** Units still takeable. */
  units: bigint
}

/** One take of the walk: `units` from offer `index` for `assets` of loan token. */
export interface Fill {
  index: number
  price: bigint
  units: bigint
  assets: bigint
}

/**
 * Loan-token assets for `units` at `price`, rounded the way Midnight's `take` rounds: a bid's taker (the
 * seller) receives units × P rounded down; an ask's taker (the buyer) pays units × P rounded up.
 */
export function takeAssets(units: bigint, price: bigint, takingBids: boolean): bigint {
  return takingBids ? (units * price) / WAD : mulDivUp(units, price, WAD)
}

/**
 * The take of `target` assets against `offers`, best price first, only at prices within `guard` (a bid at
 * or above it, an ask at or below it). Taking bids (a borrow) the walk receives at least `target` (each
 * fill sells the fewest units whose proceeds cover what is left); taking asks (a lend) it pays at most
 * `target` (each fill buys the most units it can pay for). `filled` is false when the guarded depth
 * falls short; `availableAssets`/`availableUnits` are then the whole depth within the guard.
 */
export function walkBook(
  offers: readonly BookOffer[],
  target: bigint,
  guard: bigint,
  takingBids: boolean,
): { fills: Fill[]; filled: boolean; availableAssets: bigint; availableUnits: bigint } {
  const order = offers
    .map((o, index) => ({ ...o, index }))
    .filter((o) => o.units > 0n && o.price > 0n && (takingBids ? o.price >= guard : o.price <= guard))
    .sort((a, b) => (a.price === b.price ? a.index - b.index : a.price > b.price === takingBids ? -1 : 1))
  let availableAssets = 0n
  let availableUnits = 0n
  for (const o of order) {
    availableAssets += takeAssets(o.units, o.price, takingBids)
    availableUnits += o.units
  }
  const fills: Fill[] = []
  let left = target
  for (const o of order) {
    if (left <= 0n) break
    const wanted = takingBids ? mulDivUp(left, WAD, o.price) : (left * WAD) / o.price
    const units = minOf(wanted, o.units)
    if (units === 0n) break
    const assets = takeAssets(units, o.price, takingBids)
    fills.push({ index: o.index, price: o.price, units, assets })
    left -= assets
  }
  // A lend leaves unspent the dust below one unit's price (at most a couple of atomic units).
  return { fills, filled: availableAssets >= target, availableAssets, availableUnits }
}

/**
 * Simple annual rate of a unit bought or sold at `price` (protocols.md §7a): `r = 1/P − 1` over the time
 * left, `APR = r × 31,536,000 / (maturity − now)`. Null when the market has matured.
 */
export function aprOf(price: bigint, maturity: number, now: number): number | null {
  const left = maturity - now
  if (left <= 0 || price <= 0n) return null
  return ((Number(WAD) / Number(price) - 1) * SECONDS_PER_YEAR) / left
}

/** The average price of fills (WAD): total assets over total units, rounded down. */
export function averagePrice(fills: readonly Fill[]): bigint {
  const units = fills.reduce((s, f) => s + f.units, 0n)
  const assets = fills.reduce((s, f) => s + f.assets, 0n)
  return units === 0n ? 0n : (assets * WAD) / units
}

/** The slippage bound around the best price: a bid may fall `bps` below it, an ask rise `bps` above it (≤ 1). */
export function guardPrice(best: bigint, slippageBps: number, takingBids: boolean): bigint {
  const bps = BigInt(slippageBps)
  if (takingBids) return (best * (10_000n - bps)) / 10_000n
  const up = mulDivUp(best, 10_000n + bps, 10_000n)
  return minOf(up, WAD)
}
