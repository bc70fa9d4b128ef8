import { describe, expect, test } from 'vitest'
import { readHeadAndShoulders } from './readHeadAndShoulders.js'

/** A series through the given (bar, value) knots, linear in between, one value per bar. */
function through(knots: readonly [number, number][]): number[] {
  const out: number[] = []
  for (let k = 1; k < knots.length; k++) {
    const [i0, v0] = knots[k - 1] as [number, number]
    const [i1, v1] = knots[k] as [number, number]
    for (let i = i0; i < i1; i++) out.push(v0 + ((v1 - v0) * (i - i0)) / (i1 - i0))
  }
  out.push((knots.at(-1) as [number, number])[1])
  return out
}

// Left shoulder 110, trough 100, head 120, trough 100, right shoulder 110, then a close below the
// neckline (100): the textbook top, shoulders equal and equally spaced around the head.
const TOP = through([
  [0, 100],
  [10, 110],
  [20, 100],
  [35, 120],
  [50, 100],
  [60, 110],
  [75, 95],
])

describe('readHeadAndShoulders', () => {
  test('behavior: a clear top that broke its neckline reads top with full confidence', () => {
    expect(readHeadAndShoulders(TOP)).toEqual({ pattern: 'top', confidence: 1 })
  })

  test('behavior: the mirrored series reads inverse with the same confidence', () => {
    expect(readHeadAndShoulders(TOP.map((v) => 300 - v))).toEqual({ pattern: 'inverse', confidence: 1 })
  })

  test('behavior: a top still above its neckline reads top with less confidence, by how far price has come down', () => {
    // Ends at 104: 6 of the 10 from the right shoulder (110) to the neckline (100). Break part 0.5 × 0.6.
    const forming = through([
      [0, 100],
      [10, 110],
      [20, 100],
      [35, 120],
      [50, 100],
      [60, 110],
      [66, 104],
    ])
    const read = readHeadAndShoulders(forming)
    expect(read.pattern).toBe('top')
    expect(read.confidence).toBeCloseTo(0.3 + 0.2 + 0.1 + 0.4 * 0.5 * 0.6, 12)
  })

  test('behavior: equal peaks (a sine), rising peaks and a straight trend read none', () => {
    const sine = Array.from({ length: 120 }, (_, i) => 100 + 10 * Math.sin((2 * Math.PI * i) / 30))
    expect(readHeadAndShoulders(sine)).toEqual({ pattern: 'none', confidence: 0 })
    const rising = through([
      [0, 100],
      [10, 110],
      [20, 102],
      [35, 115],
      [50, 106],
      [60, 122],
      [70, 112],
    ])
    expect(readHeadAndShoulders(rising)).toEqual({ pattern: 'none', confidence: 0 })
    const trend = Array.from({ length: 100 }, (_, i) => 100 + i)
    expect(readHeadAndShoulders(trend)).toEqual({ pattern: 'none', confidence: 0 })
    expect(readHeadAndShoulders(Array.from({ length: 50 }, () => 100))).toEqual({
      pattern: 'none',
      confidence: 0,
    })
  })

  test('behavior: a close back above the right shoulder voids the top', () => {
    const voided = [...TOP.slice(0, 66), 108, 111, 107]
    expect(readHeadAndShoulders(voided).pattern).not.toBe('top')
  })
})
