import { describe, expect, test } from 'vitest'
import {
  amountsForLiquidity,
  feeGrowthInside,
  feesOwed,
  fullRangeTicks,
  MAX_TICK,
  MIN_TICK,
  mintQuote,
  sqrtRatioAtTick,
} from './lpUniMath.js'

const Q96 = 1n << 96n
const Q128 = 1n << 128n

describe('lpUniMath', () => {
  test('behavior: sqrtRatioAtTick matches TickMath at its pinned points (MIN/MAX_SQRT_RATIO, tick 0)', () => {
    expect(sqrtRatioAtTick(0)).toBe(Q96)
    expect(sqrtRatioAtTick(MIN_TICK)).toBe(4295128739n)
    expect(sqrtRatioAtTick(MAX_TICK)).toBe(1461446703485210103287273052203988822378723970342n)
    // sqrt(1.0001^t) · 2^96 within float precision elsewhere.
    for (const t of [-196_000, -60, 1, 887_220]) {
      const float = Math.sqrt(1.0001 ** t) * 2 ** 96
      expect(Math.abs(Number(sqrtRatioAtTick(t)) / float - 1)).toBeLessThan(1e-9)
    }
    expect(() => sqrtRatioAtTick(MAX_TICK + 1)).toThrow(RangeError)
  })

  test('behavior: full range is ±887272 rounded toward zero to the spacing', () => {
    expect(fullRangeTicks(1)).toEqual({ tickLower: -887272, tickUpper: 887272 })
    expect(fullRangeTicks(10)).toEqual({ tickLower: -887270, tickUpper: 887270 })
    expect(fullRangeTicks(60)).toEqual({ tickLower: -887220, tickUpper: 887220 })
    expect(fullRangeTicks(200)).toEqual({ tickLower: -887200, tickUpper: 887200 })
  })

  test('behavior: a mint never pulls more than desired, and the scarcer side binds', () => {
    const pool = { tick: -196_000, sqrtPriceX96: sqrtRatioAtTick(-196_000) + 12345n }
    const q = mintQuote(pool, -887270, 887270, 10n ** 17n, 300_000_000n)
    expect(q.liquidity).toBeGreaterThan(0n)
    expect(q.amount0).toBeLessThanOrEqual(10n ** 17n)
    expect(q.amount1).toBeLessThanOrEqual(300_000_000n)
    // One side is (nearly) all used: the binding one.
    expect(q.amount0 >= 10n ** 17n - 1n || q.amount1 >= 300_000_000n - 1n).toBe(true)
    // Out of range: only token0 below the range, only token1 above it.
    const below = mintQuote(pool, -195_000, -194_000, 10n ** 18n, 10n ** 9n)
    expect(below.amount1).toBe(0n)
    expect(below.amount0).toBeGreaterThan(0n)
    const above = mintQuote(pool, -198_000, -197_000, 10n ** 18n, 10n ** 9n)
    expect(above.amount0).toBe(0n)
    // Removing what was minted returns at most what was paid (rounding down), within 1 wei.
    const back = amountsForLiquidity(pool, -887270, 887270, q.liquidity, false)
    expect(q.amount0 - back.amount0).toBeGreaterThanOrEqual(0n)
    expect(q.amount0 - back.amount0).toBeLessThanOrEqual(1n)
    expect(q.amount1 - back.amount1).toBeLessThanOrEqual(1n)
  })

  test('behavior: fee growth inside wraps like uint256 and fees owed are growth × liquidity / 2^128', () => {
    const lower = { feeGrowthOutside0X128: 5n * Q128, feeGrowthOutside1X128: 0n }
    const upper = { feeGrowthOutside0X128: 1n * Q128, feeGrowthOutside1X128: 0n }
    // Price inside: inside = global − below(lower.outside) − above(upper.outside).
    expect(feeGrowthInside(0, -10, 10, lower, upper, 10n * Q128, 0n)).toEqual([4n * Q128, 0n])
    // A snapshot "above" the current growth wraps around 2^256 and still yields the right difference.
    const [inside0] = feeGrowthInside(0, -10, 10, lower, upper, 3n * Q128, 0n)
    expect(inside0).toBe((1n << 256n) - 3n * Q128)
    const fees = feesOwed(
      {
        liquidity: 1000n,
        feeGrowthInside0LastX128: (1n << 256n) - 5n * Q128,
        feeGrowthInside1LastX128: 0n,
        tokensOwed0: 7n,
        tokensOwed1: 1n,
      },
      [inside0, Q128 / 2n],
    )
    expect(fees).toEqual({ fees0: 7n + 2000n, fees1: 1n + 500n })
  })
})
