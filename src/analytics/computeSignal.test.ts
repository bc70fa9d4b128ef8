import { describe, expect, test } from 'vitest'
import { macdHistogram, percentB, wilderRsi } from '../../test/helpers/referenceIndicators.js'
import { BLEND_WEIGHTS, type SignalParts } from './blendSentiment.js'
import { computeSignal, type SignalBar, VWAP_BARS, WARMUP_BARS } from './computeSignal.js'

/** A fixed series: two cycles, a drift and deterministic noise (an LCG), 168 hourly-like bars. */
function fixedBars(n = 168): SignalBar[] {
  let seed = 12345
  const noise = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31 - 0.5
  }
  return Array.from({ length: n }, (_, i) => {
    const close = 100 + 8 * Math.sin(i / 9) + 3 * Math.sin(i / 2.7) + 0.04 * i + 2 * noise()
    const spread = 0.5 + Math.abs(noise())
    return { high: close + spread, low: close - spread * 0.8, close, volume: 1000 + 500 * noise() }
  })
}

/** Relative error against a magnitude floor (prices near 100 here). */
const close = (a: number | null, b: number, tol: number) => {
  expect(a).not.toBeNull()
  expect(Math.abs((a as number) - b)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b)))
}

describe('computeSignal', () => {
  test('behavior: RSI(14), MACD(12/26/9) histogram and %B(20/2) equal the textbook arithmetic on a fixed series within 1e-9', () => {
    const bars = fixedBars()
    const closes = bars.map((b) => b.close)
    const s = computeSignal(bars)
    close(s.rsi14, wilderRsi(closes), 1e-9)
    close(s.macdHistogram, macdHistogram(closes), 1e-9)
    close(s.bollingerPctB, percentB(closes), 1e-9)
    // A series long enough to warm up but no more: the same conventions, the same numbers.
    const short = bars.slice(0, WARMUP_BARS)
    const r = computeSignal(short)
    close(r.macdHistogram, macdHistogram(short.map((b) => b.close)), 1e-9)
    close(r.rsi14, wilderRsi(short.map((b) => b.close)), 1e-9)
  })

  test('behavior: VWAP position, SMA trend and every part follow the documented formulas', () => {
    const bars = fixedBars()
    const closes = bars.map((b) => b.close)
    const last = closes.at(-1) as number
    const s = computeSignal(bars)

    const recent = bars.slice(-VWAP_BARS)
    const vwap =
      recent.reduce((a, b) => a + ((b.high + b.low + b.close) / 3) * (b.volume as number), 0) /
      recent.reduce((a, b) => a + (b.volume as number), 0)
    close(s.vwapPosition, (last / vwap - 1) * 100, 1e-9)

    const w = closes.slice(-20)
    const mean = w.reduce((a, b) => a + b, 0) / 20
    const sigma = Math.sqrt(w.reduce((a, b) => a + (b - mean) ** 2, 0) / 20)
    const sma = (end: number) => closes.slice(end - 20, end).reduce((a, b) => a + b, 0) / 20
    const slope = (sma(closes.length) - sma(closes.length - 5)) / sigma
    expect(s.sma20Trend).toBe(slope > 0.25 ? 'up' : slope < -0.25 ? 'down' : 'flat')

    const half = (x: number) => 0.5 + 0.5 * Math.tanh(x)
    close(s.parts.rsi, wilderRsi(closes) / 100, 1e-9)
    close(s.parts.macd, half((2 * macdHistogram(closes)) / sigma), 1e-9)
    close(s.parts.bollinger, Math.min(1, Math.max(0, percentB(closes))), 1e-9)
    close(s.parts.vwap, half((last - vwap) / sigma), 1e-9)
    close(s.parts.sma, half(slope), 1e-9)
    const blended = (Object.keys(BLEND_WEIGHTS) as (keyof SignalParts)[]).reduce(
      (a, k) => a + BLEND_WEIGHTS[k] * (s.parts[k] as number),
      0,
    )
    close(s.sentiment, blended, 1e-4)
  })

  test('behavior: without volume VWAP is null and drops out of the blend; too few bars give nulls, never zeros', () => {
    const bars = fixedBars().map((b) => ({ ...b, volume: null }))
    const s = computeSignal(bars)
    expect(s.vwapPosition).toBeNull()
    expect(s.parts.vwap).toBeNull()
    expect(s.sentiment).not.toBeNull()

    const few = computeSignal(fixedBars(10))
    expect(few).toMatchObject({
      rsi14: null,
      macdHistogram: null,
      bollingerPctB: null,
      vwapPosition: null,
      sma20Trend: null,
      fib: null,
      sentiment: null,
      bias: null,
      conviction: null,
    })
    expect(computeSignal([])).toMatchObject({ close: null, sentiment: null })
  })
})
