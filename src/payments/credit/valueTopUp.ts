import { utilUsdValue } from '../../analytics/utilUsdValue.js'

const Q96 = 1n << 96n

/** The UTIL/USDC pool as a top-up is valued on it (src/chain reads; this file only computes). */
export interface TopUpPool {
  /** Spot √price × 2^96 after the block before the transfer's, and after the transfer's block. */
  sqrtPriceBefore: bigint
  sqrtPriceAt: bigint
  utilIsToken0: boolean
  /** USDC atomic units the pool held after the block before the transfer's. */
  usdcHeld: bigint
  /** The pool's own oracle over the window before the transfer; undefined when it covers under a second. */
  oracle?: { meanTick: number; harmonicLiquidity: bigint }
}

export interface TopUpValuation {
  /** USDC atomic units credited. */
  usdAtomic: bigint
  /** Which bound decided it. */
  by: 'spot' | 'oracle' | 'pool_depth'
}

/**
 * What `util` base units sent as a top-up are credited, in USDC atomic units (issue 37 item 7): the least of
 * - their value at the spot price after the block before the transfer and after the transfer's block (a push
 *   inside that block gains nothing);
 * - their value at the pool oracle's time-weighted mean price over the window before it (a push held for a
 *   few blocks moves a 30-minute mean by a few parts in a thousand; moving it far means holding the price
 *   against every arbitrage for much of the window);
 * - `maxShareOfPool` of the pool's USDC depth: the lower of the USDC it held and the USDC its harmonic mean
 *   liquidity holds at the mean price (a top-up larger than the pool would not fetch its spot value if sold,
 *   and buying UTIL just before adds USDC to the pool but not to its mean liquidity).
 * Integer arithmetic on √prices, as the pool computes; the oracle's tick is turned into a √price in floating
 * point (relative error far below one tick, 1 part in 10,000).
 */
export function valueTopUp(util: bigint, pool: TopUpPool, maxShareOfPool: number): TopUpValuation {
  const valueAt = (sqrtPriceX96: bigint) => utilUsdValue(util, sqrtPriceX96, pool.utilIsToken0)
  const spotBefore = valueAt(pool.sqrtPriceBefore)
  const spotAt = valueAt(pool.sqrtPriceAt)
  // biome-ignore lint/complexity/useMathMinMax: bigints (Math.min takes numbers)
  let best: TopUpValuation = { usdAtomic: spotBefore < spotAt ? spotBefore : spotAt, by: 'spot' }
  let depth = pool.usdcHeld
  if (pool.oracle !== undefined) {
    const meanSqrt = sqrtPriceAtTick(pool.oracle.meanTick)
    const mean = valueAt(meanSqrt)
    if (mean < best.usdAtomic) best = { usdAtomic: mean, by: 'oracle' }
    // In-range USDC at the mean price: L·√P when USDC is token1, L/√P when it is token0.
    const virtual = pool.utilIsToken0
      ? (pool.oracle.harmonicLiquidity * meanSqrt) / Q96
      : (pool.oracle.harmonicLiquidity * Q96) / meanSqrt
    if (virtual < depth) depth = virtual
  }
  const cap = (depth * BigInt(Math.round(maxShareOfPool * 1_000_000))) / 1_000_000n
  if (cap < best.usdAtomic) best = { usdAtomic: cap, by: 'pool_depth' }
  return best
}

/** √(1.0001^tick) × 2^96, rounded down. */
export function sqrtPriceAtTick(tick: number): bigint {
  return BigInt(Math.floor(Math.sqrt(1.0001 ** tick) * 2 ** 96))
}
