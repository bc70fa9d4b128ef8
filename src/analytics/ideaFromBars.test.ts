import { describe, expect, test } from 'vitest'
import type { z } from 'zod'
import type { Bar } from './bar.js'
import type { idea } from './ideaFromBars.js'
import { IDEA_WARMUP_BARS, type IdeaMarket, type IdeaRead, ideaFromBars } from './ideaFromBars.js'

const SIX_H = 21_600
const T0 = 1_790_000_000

/** Bars at six-hour spacing from closes, high/low = close ± half. */
function bars(closes: readonly number[], half = 0.5, step = SIX_H): Bar[] {
  return closes.map((close, i) => ({
    t: T0 + i * step,
    open: close,
    high: close + half,
    low: close - half,
    close,
    volume: 1000,
  }))
}

const MARKET: IdeaMarket = { symbol: 'ETH', pairIndex: 1, category: 'crypto', maxLeverage: 250, mark: 139 }
/** 40 closes 100, 101, …, 139. */
const RISING = Array.from({ length: 40 }, (_, i) => 100 + i)
const FALLING = Array.from({ length: 40 }, (_, i) => 139 - i)

function asIdea(r: ReturnType<typeof ideaFromBars>): IdeaRead {
  if ('status' in r) throw new Error(`expected an idea, got ${r.status}`)
  return r
}

function allFinite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value)
  if (value !== null && typeof value === 'object') return Object.values(value).every(allFinite)
  return true
}

describe('ideaFromBars', () => {
  test('behavior: a rising series is a long with the hand-computed stop, target, leverage, liquidation and edge', () => {
    const r = asIdea(ideaFromBars(bars(RISING), MARKET, '6h-30d'))
    // TR = max(1, |h − prev c| = 1.5, 0.5) = 1.5 every bar → ATR 1.5. EMA(20) of a unit ramp, SMA-seeded,
    // sits exactly 9.5 below the close: d = 9.5 / 1.5, s = 5 / 1.5, conviction = tanh(10/3).
    expect(r.direction).toBe('long')
    expect(r.conviction).toBeCloseTo(Math.tanh(10 / 3), 12)
    expect(r.entry).toBe(139)
    expect(r.stop).toBeCloseTo(136, 12)
    expect(r.target).toBeCloseTo(145, 12)
    // S = 3/139; P90 of 1/close over closes 100..139 is the 36th smallest = 1/104; D = S + max(S/2, 1/104).
    const S = 3 / 139
    const D = S + Math.max(S / 2, 1 / 104)
    expect(r.leverage).toBe(Math.floor(0.9 / D))
    expect(r.leverage).toBe(27)
    expect(r.liquidation).toBeCloseTo(139 * (1 - 0.9 / 27), 9)
    expect(r.liquidation as number).toBeLessThan(r.stop)
    const c = Math.tanh(10 / 3)
    expect(r.edge).toBeCloseTo(c * 2 * S - (1 - c) * S, 12)
    expect(r.open).toEqual({
      pairIndex: 1,
      long: true,
      leverage: 27,
      markPrice: 139,
      tradeType: 0,
      tp: r.target,
      sl: r.stop,
    })
    // The read fits the route's idea schema as it is.
    const fits: z.input<typeof idea> = r
    expect(fits.symbol).toBe('ETH')
    expect(allFinite(r)).toBe(true)
  })

  test('behavior: a falling series is a short with the stop above the entry and the liquidation beyond it', () => {
    const r = asIdea(ideaFromBars(bars(FALLING), { ...MARKET, mark: 100 }, '6h-30d'))
    expect(r.direction).toBe('short')
    expect(r.stop).toBeCloseTo(103, 12)
    expect(r.target).toBeCloseTo(94, 12)
    expect(r.liquidation as number).toBeGreaterThan(r.stop)
    expect(r.liquidation).toBeCloseTo(100 * (1 + 0.9 / r.leverage), 9)
    expect(r.open.long).toBe(false)
    expect(r.open.tp).toBe(r.target)
    expect(r.open.sl).toBe(r.stop)
    expect(allFinite(r)).toBe(true)
  })

  test('behavior: a flat series (no range) is neutral, and a constant close with a range is neutral too', () => {
    const flat = Array.from({ length: 40 }, () => 100)
    expect(ideaFromBars(bars(flat, 0), MARKET, '6h-30d')).toEqual({
      status: 'neutral',
      symbol: 'ETH',
      category: 'crypto',
      reason: 'no_trend',
    })
    expect(ideaFromBars(bars(flat, 1), MARKET, '6h-30d')).toMatchObject({
      status: 'neutral',
      reason: 'no_trend',
    })
  })

  test('behavior: a rise that turns down (close under a still-rising EMA) is neutral: mixed signals', () => {
    const closes = [...Array.from({ length: 35 }, (_, i) => 100 + i), 120]
    expect(ideaFromBars(bars(closes), MARKET, '6h-30d')).toMatchObject({
      status: 'neutral',
      reason: 'no_trend',
    })
  })

  test('error: fewer bars than the warm-up is insufficient_history, not a number', () => {
    expect(ideaFromBars(bars(RISING.slice(0, IDEA_WARMUP_BARS - 1)), MARKET, '6h-30d')).toEqual({
      status: 'insufficient_history',
      symbol: 'ETH',
      needed: 25,
      got: 24,
    })
    expect(ideaFromBars([], MARKET, '1d-1y')).toEqual({
      status: 'insufficient_history',
      symbol: 'ETH',
      needed: 25,
      got: 0,
    })
    expect(asIdea(ideaFromBars(bars(RISING.slice(0, IDEA_WARMUP_BARS)), MARKET, '6h-30d')).direction).toBe(
      'long',
    )
  })

  test('behavior: a gap keeps only the bars inside the basis window; too few left is insufficient_history', () => {
    // 30 six-hour bars, then a 29-day jump before 10 more: the 30-day window ending at the last bar holds
    // only the 10 bars after the jump.
    const early = bars(RISING.slice(0, 30))
    const jump = 29 * 86_400
    const late = bars(RISING.slice(30)).map((b, i) => ({
      ...b,
      t: (early.at(-1) as Bar).t + jump + (i + 1) * SIX_H,
    }))
    const r = ideaFromBars([...early, ...late], MARKET, '6h-30d')
    expect(r).toMatchObject({ status: 'insufficient_history', needed: 25 })
    expect((r as { got: number }).got).toBe(10)
    // On the daily basis (365-day window) every bar counts and the read goes on.
    const d = asIdea(ideaFromBars([...early, ...late], MARKET, '1d-1y'))
    expect(d.direction).toBe('long')
    expect(allFinite(d)).toBe(true)
  })

  test('behavior: a gap inside the window (missing bars) still reads; the price jump widens ATR and the stop', () => {
    const closes = [...RISING.slice(0, 30), ...RISING.slice(30).map((c) => c + 10)]
    const withGap = bars(closes).filter((_, i) => i < 28 || i >= 30)
    const r = asIdea(ideaFromBars(withGap, { ...MARKET, mark: 149 }, '6h-30d'))
    expect(r.direction).toBe('long')
    expect(149 - r.stop).toBeGreaterThan(3)
    expect(r.liquidation as number).toBeLessThan(r.stop)
  })

  test('behavior: leverage is never above maxLeverage, is at least 1.1, and the liquidation sits beyond the stop', () => {
    const series = [
      bars(RISING),
      bars(FALLING),
      bars(RISING, 0.05),
      bars(
        RISING.map((c) => c * 0.01),
        0.001,
      ),
    ]
    for (const maxLeverage of [1, 1.1, 1.5, 2, 3, 5, 7.5, 10, 25, 50, 100, 150, 250, 500, 1000]) {
      for (const s of series) {
        const mark = (s.at(-1) as Bar).close
        const r = ideaFromBars(s, { ...MARKET, maxLeverage, mark }, '6h-30d')
        if ('status' in r) {
          expect(r.status).toBe('neutral')
          expect(maxLeverage).toBeLessThan(1.1)
          continue
        }
        expect(r.leverage).toBeLessThanOrEqual(maxLeverage)
        expect(r.leverage).toBeGreaterThanOrEqual(1.1)
        if (r.direction === 'long') expect(r.liquidation as number).toBeLessThan(r.stop)
        else expect(r.liquidation as number).toBeGreaterThan(r.stop)
        expect(allFinite(r)).toBe(true)
      }
    }
  })

  test('behavior: a stop too wide for any leverage is neutral (stop_too_wide)', () => {
    // ATR 30 on closes near 100: stop at 2 ATR would sit at or under 0 for a long.
    const closes = Array.from({ length: 40 }, (_, i) => 100 + i * 0.5)
    const wide = bars(closes, 30)
    expect(ideaFromBars(wide, { ...MARKET, mark: 120 }, '6h-30d')).toMatchObject({
      status: 'neutral',
      reason: 'stop_too_wide',
    })
  })

  test('default: the daily basis reads the same rising bars the same way (window 365 days)', () => {
    const daily = bars(RISING, 0.5, 86_400)
    const r = asIdea(ideaFromBars(daily, MARKET, '1d-1y'))
    expect(r).toEqual(asIdea(ideaFromBars(bars(RISING), MARKET, '6h-30d')))
  })

  test('behavior: the same input twice gives deep-equal output', () => {
    const s = bars(RISING.map((c, i) => c + Math.sin(i)))
    expect(ideaFromBars(s, MARKET, '6h-30d')).toEqual(
      ideaFromBars(structuredClone(s), { ...MARKET }, '6h-30d'),
    )
  })

  test('error: a non-positive mark, a non-finite maxLeverage or bars out of order throw RangeError', () => {
    expect(() => ideaFromBars(bars(RISING), { ...MARKET, mark: 0 }, '6h-30d')).toThrow(RangeError)
    expect(() => ideaFromBars(bars(RISING), { ...MARKET, maxLeverage: Number.NaN }, '6h-30d')).toThrow(
      RangeError,
    )
    expect(() => ideaFromBars(bars(RISING).reverse(), MARKET, '6h-30d')).toThrow(RangeError)
    const bad = bars(RISING)
    bad[3] = { ...(bad[3] as Bar), close: Number.NaN }
    expect(() => ideaFromBars(bad, MARKET, '6h-30d')).toThrow(RangeError)
  })
})
