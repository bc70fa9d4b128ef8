import { describe, expect, test } from 'vitest'
import { SECONDS_PER_YEAR } from '../chain/units.js'
import { impliedApr } from './impliedApr.js'

const WAD = 10n ** 18n
const NOW = 1_795_000_000

describe('impliedApr', () => {
  test('behavior: half price a year out is 100 % a year; par is 0 %', () => {
    expect(impliedApr(WAD / 2n, NOW + SECONDS_PER_YEAR, NOW)).toBe(1)
    expect(impliedApr(WAD, NOW + 86_400, NOW)).toBe(0)
  })

  test('behavior: the period rate is annualised linearly over the time left', () => {
    // P = 1 / (1 + 7 % × 30/365): 30 days at 7 % a year.
    const days = 30
    const price = BigInt(Math.round(1e18 / (1 + (0.07 * days) / 365)))
    expect(impliedApr(price, NOW + days * 86_400, NOW)).toBeCloseTo(0.07, 12)
    // The same price with half the time left is twice the rate.
    expect(impliedApr(price, NOW + (days * 86_400) / 2, NOW)).toBeCloseTo(0.14, 12)
    // 0.99 WAD over 90 days, by the formula's own terms.
    expect(impliedApr(99n * 10n ** 16n, NOW + 90 * 86_400, NOW)).toBe(
      ((1 / 0.99 - 1) * SECONDS_PER_YEAR) / (90 * 86_400),
    )
  })

  test('behavior: no rate once the market has matured, or for a price outside (0, 1e18]', () => {
    expect(impliedApr(WAD / 2n, NOW, NOW)).toBeNull()
    expect(impliedApr(WAD / 2n, NOW - 1, NOW)).toBeNull()
    expect(impliedApr(0n, NOW + 86_400, NOW)).toBeNull()
    expect(impliedApr(WAD + 1n, NOW + 86_400, NOW)).toBeNull()
  })
})
