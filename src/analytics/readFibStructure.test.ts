import { describe, expect, test } from 'vitest'
import { readFibStructure } from './readFibStructure.js'

describe('readFibStructure', () => {
  test('behavior: an up swing given back to exactly 61.8% sits on the level with confidence 1', () => {
    // Low 100 first, high 200 later, last close 200 − 0.618 × 100.
    const closes = [120, 100, 130, 170, 200, 180, 150, 138.2]
    const read = readFibStructure(closes)
    expect(read?.swing).toBe('up')
    expect(read?.level).toBe(0.618)
    expect(read?.retracement).toBeCloseTo(0.618, 12)
    expect(read?.confidence).toBeCloseTo(1, 12)
  })

  test('behavior: a down swing measures the bounce from the low; confidence falls linearly to 0 at 0.05 from a level', () => {
    // High 200 first, low 100 later; close 142.5: retracement 0.425, 0.043 from 0.382.
    const read = readFibStructure([200, 160, 100, 120, 142.5])
    expect(read?.swing).toBe('down')
    expect(read?.level).toBe(0.382)
    expect(read?.confidence).toBeCloseTo(1 - 0.043 / 0.05, 12)
    // At the swing's end (no retracement) or midway between 0.236 and 0.382 + 0.05: nothing.
    expect(readFibStructure([100, 150, 200])?.confidence).toBe(0)
    expect(readFibStructure([200, 100, 131])?.confidence).toBe(0)
  })

  test('behavior: a flat window or a single close has no structure (null)', () => {
    expect(readFibStructure([5, 5, 5])).toBeNull()
    expect(readFibStructure([5])).toBeNull()
  })
})
