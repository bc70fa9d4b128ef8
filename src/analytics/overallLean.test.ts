import { describe, expect, test } from 'vitest'
import { type Dominance, dominanceSide } from './buySellDominance.js'
import { overallLean } from './overallLean.js'

const frame = (buyPct: number): Dominance => ({
  status: 'ok',
  buyPct,
  sellPct: 100 - buyPct,
  dominance: dominanceSide(buyPct),
  basis: 'volume',
})

describe('overallLean', () => {
  test('behavior: the mean buyPct of the frames decides, frames weighing the same', () => {
    // (60 + 50 + 56) / 3 = 55.33 → buy; (40 + 50 + 44) / 3 = 44.67 → sell; (60 + 40 + 52) / 3 = 50.67 → even.
    expect(overallLean([frame(60), frame(50), frame(56)])).toBe('buy')
    expect(overallLean([frame(40), frame(50), frame(44)])).toBe('sell')
    expect(overallLean([frame(60), frame(40), frame(52)])).toBe('even')
  })

  test('behavior: the thresholds are inclusive (a mean of exactly 55 is buy, 45 is sell)', () => {
    expect(overallLean([frame(54), frame(56)])).toBe('buy')
    expect(overallLean([frame(44), frame(46)])).toBe('sell')
  })

  test('behavior: a rising, a falling and a flat set of frames', () => {
    expect(overallLean([frame(100), frame(100), frame(100)])).toBe('buy')
    expect(overallLean([frame(0), frame(0), frame(0)])).toBe('sell')
    expect(overallLean([frame(50), frame(50), frame(50)])).toBe('even')
  })

  test('default: no frames is even', () => {
    expect(overallLean([])).toBe('even')
  })

  test('behavior: the same frames give the same lean', () => {
    const fs = [frame(57.3), frame(49.1), frame(61.8)]
    expect(overallLean(fs)).toBe(overallLean([...fs]))
  })
})
