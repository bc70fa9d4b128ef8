import { describe, expect, test } from 'vitest'
import type { Bar } from './bar.js'
import { compareAssets, type PairRead } from './compareAssets.js'

const T0 = 1_790_000_000
const DAY = 86_400

function bars(closes: readonly number[], t0 = T0): Bar[] {
  return closes.map((close, i) => ({
    t: t0 + i * DAY,
    open: close,
    high: close,
    low: close,
    close,
    volume: null,
  }))
}

/** Closes 100 × exp(cumulative sum of the log returns). */
function fromReturns(returns: readonly number[]): number[] {
  const out = [100]
  let x = 0
  for (const r of returns) {
    x += r
    out.push(100 * Math.exp(x))
  }
  return out
}

function ok(r: ReturnType<typeof compareAssets>): PairRead {
  if (r.status !== 'ok') throw new Error(`expected a read, got ${r.status}`)
  return r
}

function allFinite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value)
  if (value !== null && typeof value === 'object') return Object.values(value).every(allFinite)
  return true
}

describe('compareAssets', () => {
  test('behavior: orthogonal return patterns have correlation 0 and the hand-computed z-score', () => {
    // a's log returns ±0.01 alternating; b's +0.01, +0.01, −0.01, −0.01 repeating: Σ u v = 0, both means 0.
    const u = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 0.01 : -0.01))
    const v = Array.from({ length: 20 }, (_, i) => (i % 4 < 2 ? 0.01 : -0.01))
    const r = ok(compareAssets(bars(fromReturns(u)), bars(fromReturns(v))))
    // Log-ratio: 0 everywhere except −0.02 at bars 2, 6, 10, 14, 18 (5 of 21); the last is 0.
    const m = -0.1 / 21
    const sigma = Math.sqrt((5 * 0.02 ** 2) / 21 - m ** 2)
    expect(r.bars).toBe(21)
    expect(r.zScore).toBeCloseTo((0 - m) / sigma, 9)
    expect(r.zScore).toBeCloseTo(0.559, 3)
    expect(r.correlation).toBeCloseTo(0, 12)
    expect(r.ratio).toBeCloseTo(1, 12)
    expect(r.relativeStrength).toBeCloseTo(0, 9)
    expect(r.suggestion).toBeNull()
  })

  test('behavior: a last-bar 10% jump of a against b gives z = √20 and suggests long b, short a', () => {
    const b = Array.from({ length: 21 }, (_, i) => 100 + (i % 2))
    const a = b.map((c, i) => (i < 20 ? 2 * c : 2.2 * c))
    const r = ok(compareAssets(bars(a), bars(b)))
    expect(r.ratio).toBeCloseTo(2.2, 12)
    expect(r.zScore).toBeCloseTo(Math.sqrt(20), 9)
    // a: 200 → 220 (+10%); b: 100 → 100 (0%).
    expect(r.relativeStrength).toBeCloseTo(10, 9)
    expect(r.suggestion).toEqual({ long: 'b', short: 'a' })
    // Returns: b alternates ±L (L = ln 1.01, mean 0, variance L²); a is b plus δ = ln 1.1 on the last
    // (where b's is −L): cov = L² − δL/20, var(a) = L² − δL/10 + 19δ²/400.
    const L = Math.log(1.01)
    const d = Math.log(1.1)
    expect(r.correlation).toBeCloseTo(
      (L * L - (d * L) / 20) / (L * Math.sqrt(L * L - (d * L) / 10 + (19 * d * d) / 400)),
      9,
    )
    // Mirrored: a is now the cheap leg.
    const m = ok(compareAssets(bars(b), bars(a)))
    expect(m.zScore).toBeCloseTo(-Math.sqrt(20), 9)
    expect(m.suggestion).toEqual({ long: 'a', short: 'b' })
  })

  test('behavior: a rising leg against a falling one: ratio, relative strength and perfect anti-correlation', () => {
    const a = Array.from({ length: 25 }, (_, i) => 100 * 1.01 ** i)
    const b = Array.from({ length: 25 }, (_, i) => 100 * 1.01 ** -i)
    const r = ok(compareAssets(bars(a), bars(b)))
    expect(r.ratio).toBeCloseTo(1.01 ** 48, 9)
    expect(r.relativeStrength).toBeCloseTo((1.01 ** 24 - 1) * 100 - (1.01 ** -24 - 1) * 100, 9)
    // Constant log returns on each leg: no variance, so no correlation.
    expect(r.correlation).toBeNull()
    // The log-ratio is a ramp 0..24 steps: z = 12 / √((25² − 1) / 12).
    expect(r.zScore).toBeCloseTo(12 / Math.sqrt(624 / 12), 9)
    expect(r.suggestion).toBeNull()
    // The log-ratio climbs 2 ln 1.01 per bar exactly: the fitted slope, and a move of 24 steps against a
    // σ of √(52) steps: up.
    expect(r.ratioSlopePctPerBar).toBeCloseTo((1.01 ** 2 - 1) * 100, 9)
    expect(r.ratioTrend).toBe('up')
    const mirrored = ok(compareAssets(bars(b), bars(a)))
    expect(mirrored.ratioTrend).toBe('down')
    expect(mirrored.ratioSlopePctPerBar).toBeCloseTo((1.01 ** -2 - 1) * 100, 9)
  })

  test('behavior: a ratio that zigzags around a level has a near-zero slope and no trend', () => {
    const a = Array.from({ length: 30 }, (_, i) => 100 * (i % 2 === 0 ? 1.02 : 0.98))
    const b = Array.from({ length: 30 }, () => 100)
    const r = ok(compareAssets(bars(a), bars(b)))
    // x alternates ln 1.02, ln 0.98: slope = Σ(i − ī)(x − x̄) / Σ(i − ī)², written out for n = 30.
    const x = a.map((v) => Math.log(v / 100))
    const mx = x.reduce((p, q) => p + q, 0) / 30
    let num = 0
    let den = 0
    for (let i = 0; i < 30; i++) {
      num += (i - 14.5) * ((x[i] as number) - mx)
      den += (i - 14.5) ** 2
    }
    expect(r.ratioSlopePctPerBar).toBeCloseTo(Math.expm1(num / den) * 100, 12)
    expect(r.ratioTrend).toBe('flat')
  })

  test('behavior: flat legs give null z-score and correlation, ratio 1 and no suggestion', () => {
    const flat = Array.from({ length: 20 }, () => 50)
    const r = ok(compareAssets(bars(flat), bars(flat)))
    expect(r).toMatchObject({
      ratio: 1,
      relativeStrength: 0,
      ratioSlopePctPerBar: 0,
      ratioTrend: 'flat',
      zScore: null,
      correlation: null,
      suggestion: null,
    })
    // A constant ratio with moving legs: z null, the legs perfectly correlated.
    const b = Array.from({ length: 20 }, (_, i) => 100 + 3 * Math.sin(i))
    const c = ok(compareAssets(bars(b.map((x) => 2 * x)), bars(b)))
    expect(c.zScore).toBeNull()
    expect(c.correlation).toBeCloseTo(1, 12)
    expect(allFinite(c)).toBe(true)
  })

  test('behavior: only common timestamps count (gaps on either leg)', () => {
    const a = bars(Array.from({ length: 25 }, (_, i) => 100 + i))
    const b = bars(Array.from({ length: 25 }, (_, i) => 200 - i)).filter((_, i) => i % 8 !== 3)
    // b misses bars 3, 11, 19: 22 common.
    const r = ok(
      compareAssets(a, [...b, { t: T0 + 100 * DAY, open: 1, high: 1, low: 1, close: 1, volume: null }]),
    )
    expect(r.bars).toBe(22)
    expect(r.from).toBe(T0)
    expect(r.to).toBe(T0 + 24 * DAY)
    expect(r.ratio).toBeCloseTo(124 / 176, 12)
    expect(allFinite(r)).toBe(true)
  })

  test('error: fewer than 20 common bars is insufficient_history', () => {
    const a = bars(Array.from({ length: 25 }, (_, i) => 100 + i))
    const b = a.filter((_, i) => i % 4 !== 0)
    expect(compareAssets(a, b)).toEqual({ status: 'insufficient_history', needed: 20, got: 18 })
    expect(compareAssets([], a)).toEqual({ status: 'insufficient_history', needed: 20, got: 0 })
    // Disjoint timestamps: nothing in common.
    expect(compareAssets(a, bars([1, 2, 3], T0 + 1))).toEqual({
      status: 'insufficient_history',
      needed: 20,
      got: 0,
    })
  })

  test('error: a close that is not a positive number throws RangeError', () => {
    const a = bars(Array.from({ length: 25 }, (_, i) => 100 + i))
    const bad = a.map((b, i) => (i === 5 ? { ...b, close: 0 } : b))
    expect(() => compareAssets(a, bad)).toThrow(RangeError)
  })

  test('behavior: the same input twice, in any bar order, gives deep-equal output', () => {
    const a = bars(Array.from({ length: 30 }, (_, i) => 100 + 5 * Math.sin(i / 3)))
    const b = bars(Array.from({ length: 30 }, (_, i) => 80 + 4 * Math.cos(i / 4)))
    const once = compareAssets(a, b)
    expect(compareAssets(structuredClone(a), structuredClone(b))).toEqual(once)
    expect(compareAssets([...a].reverse(), b)).toEqual(once)
    expect(allFinite(once)).toBe(true)
  })
})
