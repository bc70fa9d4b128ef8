import { BollingerBands, EMA, MACD, PercentB, RSI, SMA, VWAP } from 'trading-signals'
import { type Blend, blendSentiment, type SignalParts } from './blendSentiment.js'
import { clamp01 } from './clamp01.js'
import { type FibStructure, readFibStructure } from './readFibStructure.js'
import { type HeadAndShouldersRead, readHeadAndShoulders } from './readHeadAndShoulders.js'

/** One bar, oldest first; `volume` null where the source has none. */
export interface SignalBar {
  high: number
  low: number
  close: number
  volume: number | null
}

export type SmaTrend = 'up' | 'down' | 'flat'

export interface SignalRead extends Blend {
  /** Last close; null without bars. */
  close: number | null
  /** Wilder RSI(14), 0..100; null under 15 closes. */
  rsi14: number | null
  /** MACD(12/26/9) line minus its signal line, in price units; null under 34 closes. */
  macdHistogram: number | null
  /** (close − lower) / (upper − lower) of Bollinger(20, 2σ); 0.5 on a flat window; null under 20 closes. */
  bollingerPctB: number | null
  /** (close / VWAP − 1) × 100 over the last VWAP_BARS bars; null when any of them lacks volume or all are 0. */
  vwapPosition: number | null
  /** SMA(20) now against SMA(20) SMA_SLOPE_BARS bars ago, in units of σ20; null under 25 closes. */
  sma20Trend: SmaTrend | null
  headAndShoulders: HeadAndShouldersRead
  fib: FibStructure | null
  parts: SignalParts
}

export const RSI_PERIOD = 14
export const MACD_FAST = 12
export const MACD_SLOW = 26
export const MACD_SIGNAL = 9
export const BB_PERIOD = 20
export const BB_DEVIATIONS = 2
export const SMA_PERIOD = 20
export const SMA_SLOPE_BARS = 5
/** |slope| (SMA change over SMA_SLOPE_BARS bars, in σ20) above this is a trend, else flat. */
export const SMA_FLAT_BAND = 0.25
export const VWAP_BARS = 24
/** The pattern reads need this many closes before they contribute to the blend. */
export const PATTERN_MIN_BARS = 20
/** Closes before every indicator has a value: MACD's slow EMA plus its signal EMA, less one. */
export const WARMUP_BARS = MACD_SLOW + MACD_SIGNAL - 1

const NO_PATTERN: HeadAndShouldersRead = { pattern: 'none', confidence: 0 }

/**
 * Every indicator, pattern read and the blend for one symbol's bars: the pure compute boundary of
 * GET /v1/signals (no I/O, no clock), so a benchmark can time it alone.
 *
 * Indicators come from trading-signals over closes: RSI (Wilder smoothing, seeded with the simple mean of
 * the first 14 changes), MACD (EMAs seeded with their first input; the signal EMA starts at the first MACD
 * value, on close 26), Bollinger %B (population σ), SMA(20), VWAP (typical price (h+l+c)/3 × volume).
 * σ20 below is the Bollinger σ of the last 20 closes. Parts, each 0..1:
 *   rsi = RSI / 100 (momentum reading)
 *   macd = 0.5 + 0.5 tanh(2 × histogram / σ20)
 *   bollinger = %B clamped to 0..1
 *   vwap = 0.5 + 0.5 tanh((close − VWAP) / σ20)
 *   sma = 0.5 + 0.5 tanh(slope), slope = (SMA20 now − SMA20 5 bars ago) / σ20
 *   headAndShoulders = 0.5 − 0.5 c for a top, 0.5 + 0.5 c for an inverse, 0.5 for none
 *   fib = 0.5 + 0.5 c in an up swing, 0.5 − 0.5 c in a down swing
 * (σ20 = 0, a flat window, reads the tanh terms as 0.) The blend is `blendSentiment`.
 */
export function computeSignal(bars: readonly SignalBar[]): SignalRead {
  const n = bars.length
  const rsi = new RSI(RSI_PERIOD)
  const macd = new MACD(new EMA(MACD_FAST), new EMA(MACD_SLOW), new EMA(MACD_SIGNAL))
  const percentB = new PercentB({ interval: BB_PERIOD, deviationMultiplier: BB_DEVIATIONS })
  const bands = new BollingerBands(BB_PERIOD, BB_DEVIATIONS)
  const sma = new SMA(SMA_PERIOD)
  const closes = new Array<number>(n)
  const smaTail: number[] = []
  // RSI and MACD are recursive and take every close; the windowed indicators only need their last
  // window, which gives the same values for a fraction of the work.
  const smaFrom = n - SMA_PERIOD - SMA_SLOPE_BARS
  for (let i = 0; i < n; i++) {
    const close = (bars[i] as SignalBar).close
    closes[i] = close
    rsi.update(close, false)
    macd.update(close, false)
    if (i >= n - BB_PERIOD) {
      percentB.update(close, false)
      bands.update(close, false)
    }
    if (i >= smaFrom) {
      const s = sma.update(close, false)
      if (s !== null) smaTail.push(s)
    }
  }
  const close = n === 0 ? null : (closes[n - 1] as number)

  const rsi14 = rsi.getResult()
  const macdHistogram = n >= WARMUP_BARS ? (macd.getResult()?.histogram ?? null) : null
  const bollingerPctB = percentB.getResult()
  const band = bands.getResult()
  const sigma = band === null ? null : (band.upper - band.middle) / BB_DEVIATIONS
  const scaled = (x: number) => (sigma !== null && sigma > 0 ? x / sigma : 0)

  let slope: number | null = null
  if (smaTail.length === SMA_SLOPE_BARS + 1) {
    slope = scaled((smaTail.at(-1) as number) - (smaTail[0] as number))
  }
  const sma20Trend: SmaTrend | null =
    slope === null ? null : slope > SMA_FLAT_BAND ? 'up' : slope < -SMA_FLAT_BAND ? 'down' : 'flat'

  let vwap: number | null = null
  const recent = bars.slice(-VWAP_BARS)
  if (n >= VWAP_BARS && recent.every((b) => b.volume !== null)) {
    const indicator = new VWAP()
    for (const b of recent)
      indicator.update({ high: b.high, low: b.low, close: b.close, volume: b.volume as number }, false)
    vwap = indicator.getResult()
  }
  const vwapPosition = vwap === null || close === null || !(vwap > 0) ? null : (close / vwap - 1) * 100

  const patterns = n >= PATTERN_MIN_BARS
  const headAndShoulders = patterns ? readHeadAndShoulders(closes) : NO_PATTERN
  const fib = patterns ? readFibStructure(closes) : null

  const half = (x: number) => 0.5 + 0.5 * Math.tanh(x)
  const parts: SignalParts = {
    rsi: rsi14 === null ? null : rsi14 / 100,
    macd: macdHistogram === null ? null : half(2 * scaled(macdHistogram)),
    bollinger: bollingerPctB === null ? null : clamp01(bollingerPctB),
    vwap: vwapPosition === null || vwap === null || close === null ? null : half(scaled(close - vwap)),
    sma: slope === null ? null : half(slope),
    headAndShoulders: !patterns
      ? null
      : headAndShoulders.pattern === 'top'
        ? 0.5 - 0.5 * headAndShoulders.confidence
        : headAndShoulders.pattern === 'inverse'
          ? 0.5 + 0.5 * headAndShoulders.confidence
          : 0.5,
    fib:
      !patterns || fib === null
        ? null
        : fib.swing === 'up'
          ? 0.5 + 0.5 * fib.confidence
          : 0.5 - 0.5 * fib.confidence,
  }
  return {
    close,
    rsi14,
    macdHistogram,
    bollingerPctB,
    vwapPosition,
    sma20Trend,
    headAndShoulders,
    fib,
    parts,
    ...blendSentiment(parts),
  }
}
