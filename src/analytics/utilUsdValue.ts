const Q192 = 1n << 192n

/**
 * What `utilAmount` UTIL base units are worth in USDC atomic units at a Uniswap v3 UTIL/USDC pool's price
 * (`sqrtPriceX96`: √(token1 per token0, in base units) × 2^96), rounded down: the pool's spot price, with
 * both tokens' decimals already in the base units. Pure integer arithmetic, so a top-up is valued exactly.
 */
export function utilUsdValue(utilAmount: bigint, sqrtPriceX96: bigint, utilIsToken0: boolean): bigint {
  if (sqrtPriceX96 <= 0n) throw new RangeError('the pool has no price (sqrtPriceX96 is 0)')
  const priceX192 = sqrtPriceX96 * sqrtPriceX96
  // token0 → token1 multiplies by the price; token1 → token0 divides by it.
  return utilIsToken0 ? (utilAmount * priceX192) / Q192 : (utilAmount * Q192) / priceX192
}

/**
 * The UTIL base units worth `usdAtomic` (USDC atomic units) at the same pool price, rounded up: what a
 * price in dollars costs in UTIL, never a unit short.
 */
export function usdInUtil(usdAtomic: bigint, sqrtPriceX96: bigint, utilIsToken0: boolean): bigint {
  if (sqrtPriceX96 <= 0n) throw new RangeError('the pool has no price (sqrtPriceX96 is 0)')
  const priceX192 = sqrtPriceX96 * sqrtPriceX96
  const [num, den] = utilIsToken0 ? [usdAtomic * Q192, priceX192] : [usdAtomic * priceX192, Q192]
  return (num + den - 1n) / den
}
