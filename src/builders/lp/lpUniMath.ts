/**
 * Uniswap v3's tick and liquidity arithmetic in bigint, exactly as the contracts compute it (v3-core
 * TickMath, SqrtPriceMath, Tick.getFeeGrowthInside; v3-periphery LiquidityAmounts), so what a builder
 * reports (ticks, liquidity, amounts, fees owed) is what the chain will do at the same state. Pure.
 */

export const MIN_TICK = -887272
export const MAX_TICK = 887272
const Q96 = 1n << 96n
const Q128 = 1n << 128n
const MAX_UINT256 = (1n << 256n) - 1n
const UINT256 = 1n << 256n

/** Tick spacing of each fee tier enabled on Base (hundredths of a bip → spacing). */
export const TICK_SPACING: Readonly<Record<number, number>> = { 100: 1, 500: 10, 3000: 60, 10000: 200 }

/** The widest range a tier allows: ±887272 rounded toward zero to the spacing (NPM rejects anything wider). */
export function fullRangeTicks(spacing: number): { tickLower: number; tickUpper: number } {
  const max = Math.floor(MAX_TICK / spacing) * spacing
  return { tickLower: -max, tickUpper: max }
}

// TickMath's magic numbers: 2^128 / sqrt(1.0001)^(2^i), for bit i of |tick|.
const RATIO_STEPS: readonly (readonly [number, bigint])[] = [
  [0x2, 0xfff97272373d413259a46990580e213an],
  [0x4, 0xfff2e50f5f656932ef12357cf3c7fdccn],
  [0x8, 0xffe5caca7e10e4e61c3624eaa0941cd0n],
  [0x10, 0xffcb9843d60f6159c9db58835c926644n],
  [0x20, 0xff973b41fa98c081472e6896dfb254c0n],
  [0x40, 0xff2ea16466c96a3843ec78b326b52861n],
  [0x80, 0xfe5dee046a99a2a811c461f1969c3053n],
  [0x100, 0xfcbe86c7900a88aedcffc83b479aa3a4n],
  [0x200, 0xf987a7253ac413176f2b074cf7815e54n],
  [0x400, 0xf3392b0822b70005940c7a398e4b70f3n],
  [0x800, 0xe7159475a2c29b7443b29c7fa6e889d9n],
  [0x1000, 0xd097f3bdfd2022b8845ad8f792aa5825n],
  [0x2000, 0xa9f746462d870fdf8a65dc1f90e061e5n],
  [0x4000, 0x70d869a156d2a1b890bb3df62baf32f7n],
  [0x8000, 0x31be135f97d08fd981231505542fcfa6n],
  [0x10000, 0x9aa508b5b7a84e1c677de54f3e99bc9n],
  [0x20000, 0x5d6af8dedb81196699c329225ee604n],
  [0x40000, 0x2216e584f5fa1ea926041bedfe98n],
  [0x80000, 0x48a170391f7dc42444e8fa2n],
]

/** TickMath.getSqrtRatioAtTick: sqrt(1.0001^tick) as Q64.96, rounded up like the contract. */
export function sqrtRatioAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK)
    throw new RangeError(`tick ${tick} is outside ${MIN_TICK}..${MAX_TICK}`)
  const abs = Math.abs(tick)
  let ratio = (abs & 0x1) !== 0 ? 0xfffcb933bd6fad37aa2d162d1a594001n : 0x100000000000000000000000000000000n
  for (const [bit, factor] of RATIO_STEPS) if ((abs & bit) !== 0) ratio = (ratio * factor) >> 128n
  if (tick > 0) ratio = MAX_UINT256 / ratio
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n)
}

const mulDiv = (a: bigint, b: bigint, d: bigint) => (a * b) / d
const mulDivUp = (a: bigint, b: bigint, d: bigint) => {
  const p = a * b
  return p / d + (p % d === 0n ? 0n : 1n)
}
const divUp = (a: bigint, d: bigint) => a / d + (a % d === 0n ? 0n : 1n)
const sorted = (a: bigint, b: bigint): [bigint, bigint] => (a > b ? [b, a] : [a, b])

/** LiquidityAmounts.getLiquidityForAmounts: the most liquidity both amounts pay for at sqrtPrice (floored). */
export function liquidityForAmounts(
  sqrtPrice: bigint,
  sqrtA: bigint,
  sqrtB: bigint,
  amount0: bigint,
  amount1: bigint,
): bigint {
  const [lo, hi] = sorted(sqrtA, sqrtB)
  const for0 = (a: bigint, b: bigint) => mulDiv(amount0, mulDiv(a, b, Q96), b - a)
  const for1 = (a: bigint, b: bigint) => mulDiv(amount1, Q96, b - a)
  if (sqrtPrice <= lo) return for0(lo, hi)
  if (sqrtPrice < hi) {
    // The scarcer side binds (Math.min does not take bigints).
    const l0 = for0(sqrtPrice, hi)
    const l1 = for1(lo, sqrtPrice)
    if (l1 < l0) return l1
    return l0
  }
  return for1(lo, hi)
}

/** SqrtPriceMath.getAmount0Delta for a positive liquidity, rounded up (mint) or down (burn). */
export function amount0Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lo, hi] = sorted(sqrtA, sqrtB)
  const numerator = liquidity << 96n
  return roundUp ? divUp(mulDivUp(numerator, hi - lo, hi), lo) : mulDiv(numerator, hi - lo, hi) / lo
}

/** SqrtPriceMath.getAmount1Delta for a positive liquidity, rounded up (mint) or down (burn). */
export function amount1Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lo, hi] = sorted(sqrtA, sqrtB)
  return roundUp ? mulDivUp(liquidity, hi - lo, Q96) : mulDiv(liquidity, hi - lo, Q96)
}

/**
 * What the pool moves for `liquidity` over [tickLower, tickUpper) at the pool's (tick, sqrtPrice), as
 * UniswapV3Pool._modifyPosition decides it: by the current tick, rounded up when adding (what a mint
 * pulls) and down when removing (what a burn credits).
 */
export function amountsForLiquidity(
  pool: { tick: number; sqrtPriceX96: bigint },
  tickLower: number,
  tickUpper: number,
  liquidity: bigint,
  roundUp: boolean,
): { amount0: bigint; amount1: bigint } {
  const lower = sqrtRatioAtTick(tickLower)
  const upper = sqrtRatioAtTick(tickUpper)
  if (liquidity === 0n) return { amount0: 0n, amount1: 0n }
  if (pool.tick < tickLower) return { amount0: amount0Delta(lower, upper, liquidity, roundUp), amount1: 0n }
  if (pool.tick < tickUpper)
    return {
      amount0: amount0Delta(pool.sqrtPriceX96, upper, liquidity, roundUp),
      amount1: amount1Delta(lower, pool.sqrtPriceX96, liquidity, roundUp),
    }
  return { amount0: 0n, amount1: amount1Delta(lower, upper, liquidity, roundUp) }
}

/** What NonfungiblePositionManager.mint does with the desired amounts at the pool's current price. */
export function mintQuote(
  pool: { tick: number; sqrtPriceX96: bigint },
  tickLower: number,
  tickUpper: number,
  amount0Desired: bigint,
  amount1Desired: bigint,
): { liquidity: bigint; amount0: bigint; amount1: bigint } {
  const liquidity = liquidityForAmounts(
    pool.sqrtPriceX96,
    sqrtRatioAtTick(tickLower),
    sqrtRatioAtTick(tickUpper),
    amount0Desired,
    amount1Desired,
  )
  return { liquidity, ...amountsForLiquidity(pool, tickLower, tickUpper, liquidity, true) }
}

/** One tick's fee growth on the side away from the current tick (pool.ticks(t).feeGrowthOutside{0,1}X128). */
export interface TickFeeGrowth {
  feeGrowthOutside0X128: bigint
  feeGrowthOutside1X128: bigint
}

const wrap = (x: bigint) => ((x % UINT256) + UINT256) % UINT256

/**
 * Tick.getFeeGrowthInside: the fee growth per unit of liquidity inside [tickLower, tickUpper), per token,
 * with the contract's wrapping uint256 arithmetic.
 */
export function feeGrowthInside(
  tickCurrent: number,
  tickLower: number,
  tickUpper: number,
  lower: TickFeeGrowth,
  upper: TickFeeGrowth,
  global0X128: bigint,
  global1X128: bigint,
): [bigint, bigint] {
  const side = (global: bigint, lo: bigint, up: bigint): bigint => {
    const below = tickCurrent >= tickLower ? lo : wrap(global - lo)
    const above = tickCurrent < tickUpper ? up : wrap(global - up)
    return wrap(global - below - above)
  }
  return [
    side(global0X128, lower.feeGrowthOutside0X128, upper.feeGrowthOutside0X128),
    side(global1X128, lower.feeGrowthOutside1X128, upper.feeGrowthOutside1X128),
  ]
}

/**
 * The fees a position's collect would pay now: the NPM's tokensOwed plus the growth since its last
 * snapshot times its liquidity (NonfungiblePositionManager.collect after the pool's poke), truncated to
 * uint128 as the contract does.
 */
export function feesOwed(
  position: {
    liquidity: bigint
    feeGrowthInside0LastX128: bigint
    feeGrowthInside1LastX128: bigint
    tokensOwed0: bigint
    tokensOwed1: bigint
  },
  inside: [bigint, bigint],
): { fees0: bigint; fees1: bigint } {
  const accrued = (now: bigint, last: bigint) =>
    (mulDiv(wrap(now - last), position.liquidity, Q128) % Q128) as bigint
  return {
    fees0: position.tokensOwed0 + accrued(inside[0], position.feeGrowthInside0LastX128),
    fees1: position.tokensOwed1 + accrued(inside[1], position.feeGrowthInside1LastX128),
  }
}
