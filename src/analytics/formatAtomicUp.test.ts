import { describe, expect, test } from 'vitest'
import { formatAtomicUp } from './formatAtomicUp.js'

describe('formatAtomicUp', () => {
  test('behavior: rounds up to six significant digits, never down', () => {
    expect(formatAtomicUp(1_234_567_891n, 6)).toBe('1234.57')
    expect(formatAtomicUp(1_234_560_000n, 6)).toBe('1234.56')
    expect(formatAtomicUp(123_456_789_012_345_678n, 18)).toBe('0.123457')
    expect(formatAtomicUp(999_999_5n, 6, 6)).toBe('10')
  })

  test('behavior: short amounts are exact', () => {
    expect(formatAtomicUp(1n, 6)).toBe('0.000001')
    expect(formatAtomicUp(0n, 18)).toBe('0')
  })
})
