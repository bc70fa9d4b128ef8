import { describe, expect, test } from 'vitest'
import { depositCap } from './depositCap.js'

describe('depositCap', () => {
  test('behavior: depositCap grosses the quote up by the slippage (rounded up) and never exceeds the ask', () => {
    expect(depositCap(1000n, 990n, 100)).toBe(1000n) // 990 / 0.99 = 1000 exactly
    expect(depositCap(10_000n, 991n, 100)).toBe(1002n) // 1001.0101… rounds up
    expect(depositCap(10_000n, 500n, 0)).toBe(500n) // no tolerance: the quote itself
    expect(depositCap(600n, 500n, 5000)).toBe(600n) // 1000 would exceed the ask
    expect(depositCap(10n ** 30n, 0n, 100)).toBe(0n) // a side the range does not take
  })
})
