import { describe, expect, test } from 'vitest'
import { marketShiftDays } from './startDevnetWorld.js'

describe('marketShiftDays', () => {
  test('whole days from the clock’s UTC date to the market date, whatever the time of day', () => {
    const late = Date.UTC(2026, 11, 1, 23, 59, 59)
    const early = Date.UTC(2026, 11, 1, 0, 0, 1)
    expect(marketShiftDays(null, late)).toBe(0)
    expect(marketShiftDays('2026-12-01', late)).toBe(0)
    expect(marketShiftDays('2027-01-15', early)).toBe(45)
    expect(marketShiftDays('2027-01-15', late)).toBe(45)
    expect(marketShiftDays('2026-10-02', late)).toBe(-60)
  })
})
