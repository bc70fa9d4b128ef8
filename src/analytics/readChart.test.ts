import { describe, expect, test } from 'vitest'
import { macdHistogram, wilderRsi } from '../../test/helpers/referenceIndicators.js'
import type { Bar } from './bar.js'
import { computeSignal } from './computeSignal.js'
import { CHART_WARMUP_BARS, type ChartRead, MAX_MARKERS, readChart } from './readChart.js'

const GRAN = 60

/** Bars from closes, one per minute from t = 1_800_000_000; open a half-step below the close. */
function barsOf(closes: readonly number[], times?: readonly number[]): Bar[] {
  return closes.map((close, i) => ({
    t: times?.[i] ?? 1_800_000_000 + i * GRAN,
    open: close - 0.5,
    high: close + 1,
    low: close - 1,
    close,
    volume: 100,
  }))
}

/** A path of ±1 steps from `start`: each segment is a signed number of steps. */
function path(start: number, segments: readonly number[]): number[] {
  const out = [start]
  for (const s of segments)
    for (let k = 0; k < Math.abs(s); k++) out.push((out.at(-1) as number) + Math.sign(s))
  return out
}

/** A fixed noisy series (an LCG), as in computeSignal.test.ts. */
function noisy(n = 168): number[] {
  let seed = 12345
  const noise = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31 - 0.5
  }
  return Array.from(
    { length: n },
    (_, i) => 100 + 8 * Math.sin(i / 9) + 3 * Math.sin(i / 2.7) + 0.04 * i + 2 * noise(),
  )
}

function ok(r: ReturnType<typeof readChart>): ChartRead {
  if (r.status !== 'ok') throw new Error(`expected a read, got ${JSON.stringify(r)}`)
  return r
}

/** Every number anywhere in the read is finite. */
function expectFinite(r: ChartRead) {
  const nums = [
    r.momentum.rsi,
    r.momentum.macdHistogram,
    r.support ?? 0,
    r.resistance ?? 0,
    r.gaps,
    ...r.markers.flatMap((m) => [m.t, m.price]),
  ]
  for (const x of nums) expect(Number.isFinite(x)).toBe(true)
}

const kinds = (r: ChartRead, ...ks: string[]) =>
  r.markers.filter((m) => ks.includes(m.kind)).map((m) => [m.kind, (m.t - 1_800_000_000) / GRAN, m.price])

/**
 * The ±1 zigzag below: 100 →+10→ 110 →−5→ 105 →+8→ 113 →−4→ 109 →+6→ 115 →−10→ 105 →+4→ 109 →−8→ 101 →+5→ 106.
 * Mean |change| = 1, so the swing threshold is 3. Swings (bar: close): lows 0:100, 15:105, 27:109, 43:105,
 * 55:101; highs 10:110, 23:113, 33:115, 47:109 (confirmed 3 bars later each; the last leg up is unconfirmed).
 */
const ZIGZAG = path(100, [10, -5, 8, -4, 6, -10, 4, -8, 5])

describe('readChart', () => {
  test('behavior: a rising series reads up, RSI 100, rising momentum, support at the leg start, no markers', () => {
    const r = ok(readChart(barsOf(Array.from({ length: 60 }, (_, i) => 100 + i)), GRAN))
    expect(r.trend).toBe('up')
    expect(r.momentum.rsi).toBe(100)
    expect(r.momentum.macdHistogram).toBeGreaterThan(0)
    expect(r.momentum.state).toBe('rising')
    // findSwings lists the leg's start (bar 0, confirmed on bar 3) as a swing low; no high is confirmed.
    expect(r.support).toBe(100)
    expect(r.resistance).toBeNull()
    expect(r.markers).toEqual([])
    expect(r.gaps).toBe(0)
    expectFinite(r)
  })

  test('behavior: a falling series reads down, RSI 0, falling momentum', () => {
    const r = ok(readChart(barsOf(Array.from({ length: 60 }, (_, i) => 200 - i)), GRAN))
    expect(r.trend).toBe('down')
    expect(r.momentum.rsi).toBe(0)
    expect(r.momentum.macdHistogram).toBeLessThan(0)
    expect(r.momentum.state).toBe('falling')
    expect(r.markers).toEqual([])
    expectFinite(r)
  })

  test('behavior: a flat series reads flat, RSI 50, histogram 0, neutral, no levels, no markers, no NaN', () => {
    const r = ok(readChart(barsOf(new Array<number>(80).fill(100)), GRAN))
    expect(r).toEqual({
      status: 'ok',
      trend: 'flat',
      momentum: { rsi: 50, macdHistogram: 0, state: 'neutral' },
      support: null,
      resistance: null,
      markers: [],
      gaps: 0,
    })
  })

  test('behavior: RSI and MACD histogram equal the textbook arithmetic; trend agrees with /v1/signals', () => {
    const closes = noisy()
    const r = ok(readChart(barsOf(closes), GRAN))
    expect(Math.abs(r.momentum.rsi - wilderRsi(closes))).toBeLessThan(1e-9)
    expect(Math.abs(r.momentum.macdHistogram - macdHistogram(closes))).toBeLessThan(1e-9)
    const s = computeSignal(barsOf(closes))
    expect(r.trend).toBe(s.sma20Trend)
    expect(Math.abs(r.momentum.rsi - (s.rsi14 as number))).toBeLessThan(1e-9)
    expectFinite(r)
  })

  test('behavior: swing structure, breakouts, breakdowns and levels on a hand-built zigzag', () => {
    const r = ok(readChart(barsOf(ZIGZAG), GRAN))
    expect(kinds(r, 'higher-high', 'higher-low', 'lower-high', 'lower-low')).toEqual([
      ['higher-low', 15, 105],
      ['higher-high', 23, 113],
      ['higher-low', 27, 109],
      ['higher-high', 33, 115],
      ['lower-low', 43, 105],
      ['lower-high', 47, 109],
      ['lower-low', 55, 101],
    ])
    // 110 (confirmed bar 13) first closed above on bar 21; 113 (conf. 26) on bar 32; 109 low (conf. 30)
    // first closed below on bar 40; 105 lows (conf. 18 and 46) both on bar 52: one marker.
    expect(kinds(r, 'breakout', 'breakdown')).toEqual([
      ['breakout', 21, 111],
      ['breakout', 32, 114],
      ['breakdown', 40, 108],
      ['breakdown', 52, 104],
    ])
    // Last close 106: nearest swing low below is 105, nearest swing high above is 109.
    expect(r.support).toBe(105)
    expect(r.resistance).toBe(109)
    for (const m of r.markers) expect(m.price).toBe(ZIGZAG[(m.t - 1_800_000_000) / GRAN])
    expectFinite(r)
  })

  test('behavior: SMA and MACD crosses fire on the bar the sign turns', () => {
    // 60 bars at 100, 20 at 90, 20 at 110. From bar 80 + k: SMA20 = 91 + k, SMA50 = 96.2 + 0.2k, so SMA20 − SMA50
    // is −0.4 at k = 6 and +0.4 at k = 7: a golden cross on bar 87. The step down on bar 60 is the first sign.
    const closes = [
      ...new Array<number>(60).fill(100),
      ...new Array<number>(20).fill(90),
      ...new Array<number>(20).fill(110),
    ]
    const r = ok(readChart(barsOf(closes), GRAN))
    expect(kinds(r, 'golden-cross', 'death-cross')).toEqual([['golden-cross', 87, 110]])
    // MACD crosses from the textbook histogram at each bar (read from close 34 on).
    const expected: (string | number)[][] = []
    let sign = 0
    for (let i = 33; i < closes.length; i++) {
      const h = macdHistogram(closes.slice(0, i + 1))
      const s = Math.sign(h)
      if (s === 0) continue
      if (sign !== 0 && s !== sign)
        expected.push([s > 0 ? 'macd-cross-up' : 'macd-cross-down', i, closes[i] as number])
      sign = s
    }
    expect(expected.length).toBeGreaterThan(0)
    expect(kinds(r, 'macd-cross-up', 'macd-cross-down')).toEqual(expected)
    // The swing high at bar 0 (100) is confirmed on bar 60 and first closed above on bar 80.
    expect(kinds(r, 'breakout', 'breakdown')).toEqual([['breakout', 80, 110]])
    expect(r.support).toBe(90)
    expect(r.resistance).toBeNull()
  })

  test('behavior: a lower low on a shallower leg with a higher RSI is a bullish divergence (and the mirror is bearish)', () => {
    // Up 30 to 130, a steep −15 leg to a low of 115 at bar 45, a +6 bounce to 121, then a slow drift (−2, +1
    // pauses, under the swing threshold of 3) to a lower low of 114 at bar 66, and +4.
    const down = path(100, [30, -15, 6, -2, 1, -2, 1, -2, 1, -2, 1, -3, 4])
    const closes = down
    const r = ok(readChart(barsOf(closes), GRAN))
    const lows = r.markers.filter((m) => m.kind === 'bullish-divergence')
    expect(lows.length).toBe(1)
    const i = ((lows[0] as { t: number }).t - 1_800_000_000) / GRAN
    expect([i, closes[i]]).toEqual([66, 114])
    // The low it fired on is lower than the bar-45 low, and RSI (textbook) is higher there.
    expect(closes[i]).toBeLessThan(closes[45] as number)
    expect(wilderRsi(closes.slice(0, i + 1))).toBeGreaterThan(wilderRsi(closes.slice(0, 46)))
    expect(kinds(r, 'bullish-divergence')).toEqual([['bullish-divergence', i, closes[i] as number]])

    const mirror = closes.map((c) => 300 - c)
    const m = ok(readChart(barsOf(mirror), GRAN))
    expect(kinds(m, 'bearish-divergence')).toEqual([['bearish-divergence', i, mirror[i] as number]])
    expect(kinds(m, 'bullish-divergence')).toEqual([])
  })

  test('behavior: a time jump is counted in gaps and changes nothing else (no bars invented)', () => {
    const times = ZIGZAG.map(
      (_, i) => 1_800_000_000 + i * GRAN + (i >= 30 ? 10 * GRAN : 0) + (i >= 40 ? GRAN / 2 : 0),
    )
    const withGap = ok(readChart(barsOf(ZIGZAG, times), GRAN))
    const plain = ok(readChart(barsOf(ZIGZAG), GRAN))
    // 11 minutes between bars 29 and 30 is a gap; 1.5 minutes between 39 and 40 is not (> 1.5 × gran).
    expect(withGap.gaps).toBe(1)
    expect({ ...withGap, markers: [], gaps: 0 }).toEqual({ ...plain, markers: [], gaps: 0 })
    expect(withGap.markers.map((m) => m.kind)).toEqual(plain.markers.map((m) => m.kind))
    expect(withGap.markers.map((m) => m.price)).toEqual(plain.markers.map((m) => m.price))
    expect(withGap.markers.find((m) => m.kind === 'breakdown')?.t).toBe(times[40])
  })

  test('behavior: markers are the latest MAX_MARKERS, sorted by t', () => {
    const closes = path(
      100,
      Array.from({ length: 40 }, (_, k) => (k % 2 === 0 ? 6 + (k % 5) : -(4 + (k % 3)))),
    )
    const r = ok(readChart(barsOf(closes), GRAN))
    expect(r.markers.length).toBe(MAX_MARKERS)
    const ts = r.markers.map((m) => m.t)
    expect([...ts].sort((a, b) => a - b)).toEqual(ts)
    // The earliest kept marker is in the last part of the series.
    expect((ts[0] as number) - 1_800_000_000).toBeGreaterThan((closes.length / 3) * GRAN)
    expectFinite(r)
  })

  test('default: fewer bars than the warm-up (50) is insufficient_history, not a read', () => {
    expect(CHART_WARMUP_BARS).toBe(50)
    expect(readChart(barsOf(ZIGZAG.slice(0, 49)), GRAN)).toEqual({
      status: 'insufficient_history',
      needed: 50,
      got: 49,
    })
    expect(readChart([], GRAN)).toEqual({ status: 'insufficient_history', needed: 50, got: 0 })
    expect(readChart(barsOf(ZIGZAG.slice(0, 50)), GRAN).status).toBe('ok')
  })

  test('behavior: the same bars give the same read', () => {
    const bars = barsOf(noisy())
    expect(readChart(bars, 3600)).toEqual(readChart(barsOf(noisy()), 3600))
    expect(readChart(barsOf(ZIGZAG), GRAN)).toEqual(readChart(barsOf(ZIGZAG), GRAN))
  })

  test('error: a non-positive granularity, a non-finite close or unordered times throw RangeError', () => {
    expect(() => readChart(barsOf(ZIGZAG), 0)).toThrow(RangeError)
    expect(() => readChart(barsOf(ZIGZAG), Number.NaN)).toThrow(RangeError)
    const bad = barsOf(ZIGZAG)
    bad[5] = { ...(bad[5] as Bar), close: Number.NaN }
    expect(() => readChart(bad, GRAN)).toThrow(RangeError)
    const swapped = barsOf(ZIGZAG)
    swapped[5] = { ...(swapped[5] as Bar), t: (swapped[4] as Bar).t }
    expect(() => readChart(swapped, GRAN)).toThrow(RangeError)
  })
})
