import { describe, expect, test } from 'vitest'
import { usdInUtil, utilUsdValue } from './utilUsdValue.js'

const Q96 = 1n << 96n

/** √(price) × 2^96 from a float price in base units (an independent way to the same number). */
const sqrtX96 = (rawPrice: number) => BigInt(Math.round(Math.sqrt(rawPrice) * 2 ** 48)) * (1n << 48n)

describe('utilUsdValue', () => {
  test('UTIL as token1 (USDC sorts first on Base): divides by the price', () => {
    // $0.0001 per UTIL: 1e18 UTIL base units = 100 USDC base units, so token1/token0 = 1e18 / 100 = 1e16.
    const value = utilUsdValue(10n ** 24n, sqrtX96(1e16), false) // a million UTIL
    expect(Number(value)).toBeCloseTo(100_000_000, -2) // $100 in micro-USD, to float precision
  })

  test('UTIL as token0: multiplies by the price', () => {
    // token1 (USDC) per token0 (UTIL) in base units: 100 / 1e18.
    const value = utilUsdValue(10n ** 24n, sqrtX96(100 / 1e18), true)
    expect(Number(value) / 100_000_000).toBeCloseTo(1, 6)
  })

  test('exact at a price of one, rounding down', () => {
    expect(utilUsdValue(12_345n, Q96, true)).toBe(12_345n)
    expect(utilUsdValue(12_345n, Q96, false)).toBe(12_345n)
    // sqrtPrice 2^97 → price 4: 3 token1 = 0.75 token0, rounded down to 0.
    expect(utilUsdValue(3n, 2n * Q96, false)).toBe(0n)
    expect(utilUsdValue(3n, 2n * Q96, true)).toBe(12n)
  })

  test('a pool with no price is refused, never valued at zero or infinity', () => {
    expect(() => utilUsdValue(1n, 0n, false)).toThrow(RangeError)
  })

  test('usdInUtil is its inverse, rounded up: never a unit short of the dollars asked', () => {
    const sqrt = sqrtX96(1e16) // $0.0001 per UTIL, UTIL as token1
    const util = usdInUtil(1_000_000n, sqrt, false) // $1
    expect(Number(util) / 1e22).toBeCloseTo(1, 6) // about 10,000 UTIL
    expect(utilUsdValue(util, sqrt, false)).toBeGreaterThanOrEqual(1_000_000n)
    expect(utilUsdValue(util - 10n ** 6n, sqrt, false)).toBeLessThan(1_000_000n)
    expect(usdInUtil(12n, 2n * Q96, true)).toBe(3n)
    expect(usdInUtil(13n, 2n * Q96, true)).toBe(4n)
  })
})
