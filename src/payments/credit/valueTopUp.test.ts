import { describe, expect, test } from 'vitest'
import { sqrtPriceAtTick, valueTopUp } from './valueTopUp.js'

const Q96 = 1n << 96n
// UTIL as token1 at 10,000 UTIL per USDC in whole units: 10^4 · 10^18 / 10^6 raw UTIL per raw USDC.
const RAW_PRICE = 10n ** 16n
const SQRT = 7922816251426433759354395033600000000n // √(10^16) × 2^96
const UTIL_10M = 10n ** 25n // $1,000 at that price

describe('valueTopUp', () => {
  test('behavior: the tick’s √price matches Uniswap’s at tick 0 and within a part in 10^12 elsewhere', () => {
    expect(sqrtPriceAtTick(0)).toBe(Q96)
    const t = 368_000 // near the devnet pool's tick
    const exact = Math.sqrt(1.0001 ** t)
    expect(Math.abs(Number(sqrtPriceAtTick(t)) / 2 ** 96 - exact) / exact).toBeLessThan(1e-12)
    expect(SQRT * SQRT).toBe(RAW_PRICE * Q96 * Q96)
  })

  test('behavior: the least of the two spot values, the oracle’s mean and the depth share decides', () => {
    const pool = {
      sqrtPriceBefore: SQRT,
      sqrtPriceAt: SQRT,
      utilIsToken0: false,
      usdcHeld: 200_000n * 10n ** 6n,
    }
    expect(valueTopUp(UTIL_10M, pool, 0.05)).toEqual({ usdAtomic: 1_000n * 10n ** 6n, by: 'spot' })
    // A push makes UTIL dearer: fewer UTIL per USDC, a smaller √price; the lower spot (before) decides.
    const pushed = { ...pool, sqrtPriceAt: SQRT / 2n }
    expect(valueTopUp(UTIL_10M, pushed, 0.05).by).toBe('spot')
    // Both spots pushed: the oracle's mean (at the unpushed tick, 1.0001^tick ≈ 10^16) decides.
    const tick = Math.floor(Math.log(1e16) / Math.log(1.0001))
    const both = {
      ...pool,
      sqrtPriceBefore: SQRT / 2n,
      sqrtPriceAt: SQRT / 2n,
      oracle: { meanTick: tick, harmonicLiquidity: 10n ** 24n },
    }
    const byOracle = valueTopUp(UTIL_10M, both, 0.05)
    expect(byOracle.by).toBe('oracle')
    expect(Number(byOracle.usdAtomic) / 1e6).toBeCloseTo(1_000, -1)
    // A pool holding $10,000: 5% of it, $500, caps the credit.
    expect(valueTopUp(UTIL_10M, { ...pool, usdcHeld: 10_000n * 10n ** 6n }, 0.05)).toEqual({
      usdAtomic: 500n * 10n ** 6n,
      by: 'pool_depth',
    })
  })
})
