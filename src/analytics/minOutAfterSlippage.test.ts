import { describe, expect, test } from 'vitest'
import { minOutAfterSlippage } from './minOutAfterSlippage.js'

describe('minOutAfterSlippage', () => {
  test('behavior: floor(expectedOut × (10000 − bps) / 10000)', () => {
    expect(minOutAfterSlippage(331_950_000_000_000_000n, 100)).toBe(328_630_500_000_000_000n)
    // 999 × 0.99 = 989.01 → 989: rounded down, never up.
    expect(minOutAfterSlippage(999n, 100)).toBe(989n)
    expect(minOutAfterSlippage(1n, 1)).toBe(0n)
  })

  test('behavior: 0 bps keeps the whole amount, 10000 bps accepts nothing', () => {
    expect(minOutAfterSlippage(123_456n, 0)).toBe(123_456n)
    expect(minOutAfterSlippage(123_456n, 10_000)).toBe(0n)
  })

  test('behavior: exact for amounts beyond 2^53', () => {
    const big = 2n ** 200n + 12_345n
    expect(minOutAfterSlippage(big, 37)).toBe((big * 9963n) / 10_000n)
  })

  test('error: slippage outside 0..10000 or not an integer, and negative amounts, are refused', () => {
    expect(() => minOutAfterSlippage(1n, -1)).toThrow(RangeError)
    expect(() => minOutAfterSlippage(1n, 10_001)).toThrow(RangeError)
    expect(() => minOutAfterSlippage(1n, 1.5)).toThrow(RangeError)
    expect(() => minOutAfterSlippage(-1n, 1)).toThrow(RangeError)
  })
})
