import type { Bar } from './bar.js'
import {
  MACD_FAST,
  MACD_SIGNAL,
  MACD_SLOW,
  RSI_PERIOD,
  SMA_FLAT_BAND,
  SMA_PERIOD,
  SMA_SLOPE_BARS,
} from './computeSignal.js'
import { findSwings, meanAbsChange, type Swing } from './findSwings.js'
import { type InsufficientHistory, insufficientHistory } from './insufficientHistory.js'

/** Fast and slow simple moving averages whose crossing is a golden (fast above) or death cross. */
export const CROSS_FAST = SMA_PERIOD
export const CROSS_SLOW = 50
/** Swings are zigzag turns of at least this many mean absolute close-to-close changes. */
export const CHART_SWING_MULTIPLE = 3
/** Only the latest this many markers are returned. */
export const MAX_MARKERS = 20
/** A time step above this many granularities between consecutive bars counts as a gap. */
export const GAP_FACTOR = 1.5
/** Bars needed before every indicator has a value on the last bar: the slow SMA's period. */
export const CHART_WARMUP_BARS = Math.max(
  CROSS_SLOW,
  MACD_SLOW + MACD_SIGNAL - 1,
  RSI_PERIOD + 1,
  SMA_PERIOD + SMA_SLOPE_BARS,
)

export type ChartTrend = 'up' | 'down' | 'flat'
export type MomentumState = 'rising' | 'falling' | 'neutral'
export type MarkerKind =
  | 'golden-cross'
  | 'death-cross'
  | 'macd-cross-up'
  | 'macd-cross-down'
  | 'bullish-divergence'
  | 'bearish-divergence'
  | 'breakout'
  | 'breakdown'
  | 'higher-high'
  | 'higher-low'
  | 'lower-high'
  | 'lower-low'

/** A chart event: `price` is always the close of the bar opening at `t`. */
export interface ChartMarker {
  t: number
  kind: MarkerKind
  price: number
}

export interface ChartRead {
  status: 'ok'
  trend: ChartTrend
  momentum: {
    /** Wilder RSI(14) on the last bar, 0..100. */
    rsi: number
    /** MACD(12/26/9) line minus signal on the last bar, in price units. */
    macdHistogram: number
    state: MomentumState
  }
  /** Highest swing-low close strictly below the last close; null when none. */
  support: number | null
  /** Lowest swing-high close strictly above the last close; null when none. */
  resistance: number | null
  /** The latest MAX_MARKERS markers, oldest first. */
  markers: ChartMarker[]
  /** Consecutive bars more than GAP_FACTOR × granularitySec apart. */
  gaps: number
}

/**
 * Chart read of one market's bars (ascending by `t`, unix seconds) at `granularitySec`. Pure: no clock, no
 * I/O; the same bars give the same read. Bars are taken in sequence: a time jump is counted in `gaps`
 * (step > GAP_FACTOR × granularitySec) and never filled with invented bars. Fewer than CHART_WARMUP_BARS
 * (50, the slow SMA) bars give `insufficient_history`. All indicators run over closes:
 *   SMA(p)[i] = mean of closes i−p+1..i. EMA seeded with its first input, k = 2 / (p + 1).
 *   RSI: Wilder RSI(14) seeded with the mean gain and loss of the first 14 changes; 100 when the average
 *     loss is 0, 0 when the average gain is 0, and 50 when both are 0 (a flat window has no momentum).
 *   MACD(12/26/9): EMA12 − EMA26; its signal EMA(9) starts at the MACD value on close 26; the histogram
 *     (line − signal) is read from close 34 on (MACD_SLOW + MACD_SIGNAL − 1).
 * trend: the /v1/signals rule. slope = (SMA20 now − SMA20 5 bars ago) / σ20 (population σ of the last 20
 *   closes; 0 when σ20 = 0); up above +0.25, down below −0.25, else flat.
 * momentum.state: rising when histogram > 0 and RSI > 50; falling when histogram < 0 and RSI < 50; else
 *   neutral.
 * Swings: findSwings over closes with threshold CHART_SWING_MULTIPLE (3) × the mean absolute close-to-close
 *   change of all the bars (none on a flat series). A swing high at bar j is confirmed at the first later bar
 *   whose close is at least the threshold below it (a low: above it); until then it is not known.
 * support / resistance: see the fields (all confirmed swings).
 * Markers, each at bar i with price = close[i]:
 *   golden-cross / death-cross: the sign of SMA20 − SMA50 turns + / − at bar i (a zero keeps the previous
 *     sign; the first sign is not a cross).
 *   macd-cross-up / macd-cross-down: the same for the histogram, from close 34 on.
 *   higher-high / lower-high: a swing high above / below the previous swing high, at the swing's bar (equal:
 *     none); higher-low / lower-low likewise for swing lows.
 *   bearish-divergence: a swing high above the previous swing high with RSI lower there than at the previous
 *     one; bullish-divergence: a swing low below the previous swing low with RSI higher there. At the later
 *     swing's bar; both swings need an RSI (bar ≥ 14).
 *   breakout: the first close above a swing high after its confirmation bar (the level is then used up; one
 *     marker even if several levels break on that bar); breakdown: the first close below a swing low.
 * Markers are sorted by t (ties in the order above: crosses, structure, divergences, breaks) and cut to the
 * last MAX_MARKERS. Throws RangeError when granularitySec is not a positive finite number, a close is not
 * finite, or `t` is not strictly ascending.
 */
export function readChart(bars: readonly Bar[], granularitySec: number): ChartRead | InsufficientHistory {
  if (!(Number.isFinite(granularitySec) && granularitySec > 0)) {
    throw new RangeError('granularitySec must be a positive number of seconds')
  }
  const n = bars.length
  const closes = new Array<number>(n)
  const times = new Array<number>(n)
  let gaps = 0
  for (let i = 0; i < n; i++) {
    const bar = bars[i] as Bar
    if (!Number.isFinite(bar.close)) throw new RangeError(`bar ${i}: close must be a finite number`)
    if (!Number.isFinite(bar.t)) throw new RangeError(`bar ${i}: t must be a finite number`)
    if (i > 0) {
      const step = bar.t - (times[i - 1] as number)
      if (!(step > 0)) throw new RangeError(`bar ${i}: t must be strictly ascending`)
      if (step > GAP_FACTOR * granularitySec) gaps++
    }
    closes[i] = bar.close
    times[i] = bar.t
  }
  if (n < CHART_WARMUP_BARS) return insufficientHistory(CHART_WARMUP_BARS, n)

  const smaFast = smaSeries(closes, CROSS_FAST)
  const smaSlow = smaSeries(closes, CROSS_SLOW)
  const rsi = rsiSeries(closes, RSI_PERIOD)
  const hist = macdHistogramSeries(closes)
  const last = n - 1
  const close = closes[last] as number

  // Trend: the /v1/signals SMA(20) slope in units of σ20.
  const window = closes.slice(-SMA_PERIOD)
  const mean = window.reduce((a, b) => a + b, 0) / SMA_PERIOD
  const sigma = Math.sqrt(window.reduce((a, b) => a + (b - mean) ** 2, 0) / SMA_PERIOD)
  const smaMove = (smaFast[last] as number) - (smaFast[last - SMA_SLOPE_BARS] as number)
  const slope = sigma > 0 ? smaMove / sigma : 0
  const trend: ChartTrend = slope > SMA_FLAT_BAND ? 'up' : slope < -SMA_FLAT_BAND ? 'down' : 'flat'

  const rsiNow = rsi[last] as number
  const histNow = hist[last] as number
  const state: MomentumState =
    histNow > 0 && rsiNow > 50 ? 'rising' : histNow < 0 && rsiNow < 50 ? 'falling' : 'neutral'

  const threshold = CHART_SWING_MULTIPLE * meanAbsChange(closes)
  const swings = threshold > 0 ? findSwings(closes, threshold) : []

  let support: number | null = null
  let resistance: number | null = null
  for (const s of swings) {
    if (s.kind === 'low' && s.value < close && (support === null || s.value > support)) support = s.value
    if (s.kind === 'high' && s.value > close && (resistance === null || s.value < resistance)) {
      resistance = s.value
    }
  }

  const markers: ChartMarker[] = []
  const at = (i: number, kind: MarkerKind) =>
    markers.push({ t: times[i] as number, kind, price: closes[i] as number })

  for (const i of signFlips(
    smaFast.map((f, i) => (f === null || smaSlow[i] === null ? null : f - (smaSlow[i] as number))),
  ))
    at(i.index, i.up ? 'golden-cross' : 'death-cross')
  for (const i of signFlips(hist)) at(i.index, i.up ? 'macd-cross-up' : 'macd-cross-down')

  const prev: { high: Swing | null; low: Swing | null } = { high: null, low: null }
  for (const s of swings) {
    const p = prev[s.kind]
    if (p !== null && s.value !== p.value) {
      const above = s.value > p.value
      at(
        s.index,
        s.kind === 'high' ? (above ? 'higher-high' : 'lower-high') : above ? 'higher-low' : 'lower-low',
      )
    }
    prev[s.kind] = s
  }
  for (const s of swings) {
    const p = previousOfKind(swings, s)
    if (p === null) continue
    const r0 = rsi[p.index]
    const r1 = rsi[s.index]
    if (r0 === null || r1 === null || r0 === undefined || r1 === undefined) continue
    if (s.kind === 'high' && s.value > p.value && r1 < r0) at(s.index, 'bearish-divergence')
    if (s.kind === 'low' && s.value < p.value && r1 > r0) at(s.index, 'bullish-divergence')
  }

  // Breaks: a swing level is live from the bar after its confirmation until the first close beyond it.
  const levels = swings.map((s) => ({ swing: s, from: confirmedAt(closes, s, threshold) + 1, live: true }))
  for (let i = 1; i < n; i++) {
    const c = closes[i] as number
    let up = false
    let down = false
    for (const l of levels) {
      if (!l.live || l.from > i) continue
      if (l.swing.kind === 'high' && c > l.swing.value) {
        l.live = false
        up = true
      } else if (l.swing.kind === 'low' && c < l.swing.value) {
        l.live = false
        down = true
      }
    }
    if (up) at(i, 'breakout')
    if (down) at(i, 'breakdown')
  }

  markers.sort((a, b) => a.t - b.t)
  return {
    status: 'ok',
    trend,
    momentum: { rsi: rsiNow, macdHistogram: histNow, state },
    support,
    resistance,
    markers: markers.slice(-MAX_MARKERS),
    gaps,
  }
}

/** The swing of the same kind just before `s` in `swings`, or null. */
function previousOfKind(swings: readonly Swing[], s: Swing): Swing | null {
  let found: Swing | null = null
  for (const x of swings) {
    if (x === s) return found
    if (x.kind === s.kind) found = x
  }
  return null
}

/** First bar after the swing whose close moved `threshold` away from it (the bar findSwings confirms it on). */
function confirmedAt(closes: readonly number[], s: Swing, threshold: number): number {
  for (let k = s.index + 1; k < closes.length; k++) {
    const c = closes[k] as number
    if (s.kind === 'high' ? s.value - c >= threshold : c - s.value >= threshold) return k
  }
  return closes.length
}

/** Bars where the sign of a series turns (a zero or null keeps the previous sign; the first sign is no turn). */
function signFlips(values: readonly (number | null)[]): { index: number; up: boolean }[] {
  const flips: { index: number; up: boolean }[] = []
  let sign = 0
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    if (v === null || v === undefined || v === 0) continue
    const s = v > 0 ? 1 : -1
    if (sign !== 0 && s !== sign) flips.push({ index: i, up: s > 0 })
    sign = s
  }
  return flips
}

/** SMA(p) at each bar, null before bar p − 1; each window summed afresh (no running-sum drift). */
function smaSeries(values: readonly number[], p: number): (number | null)[] {
  return values.map((_, i) => {
    if (i < p - 1) return null
    let sum = 0
    for (let k = i - p + 1; k <= i; k++) sum += values[k] as number
    return sum / p
  })
}

/** EMA(p) seeded with the first input. */
function emaSeries(values: readonly number[], p: number): number[] {
  const k = 2 / (p + 1)
  const out: number[] = []
  let prev = values[0] as number
  for (const v of values) {
    prev = v * k + prev * (1 - k)
    out.push(prev)
  }
  return out
}

/** MACD(12/26/9) histogram at each bar, null before close MACD_SLOW + MACD_SIGNAL − 1. */
function macdHistogramSeries(closes: readonly number[]): (number | null)[] {
  const fast = emaSeries(closes, MACD_FAST)
  const slow = emaSeries(closes, MACD_SLOW)
  const start = MACD_SLOW - 1
  const line = closes.map((_, i) => (fast[i] as number) - (slow[i] as number)).slice(start)
  const signal = emaSeries(line, MACD_SIGNAL)
  const firstRead = MACD_SLOW + MACD_SIGNAL - 2
  return closes.map((_, i) =>
    i < firstRead ? null : (line[i - start] as number) - (signal[i - start] as number),
  )
}

/** Wilder RSI(p) at each bar, null before bar p; 50 when there was no move at all in the averages. */
function rsiSeries(closes: readonly number[], p: number): (number | null)[] {
  const out: (number | null)[] = closes.map(() => null)
  if (closes.length <= p) return out
  let gain = 0
  let loss = 0
  for (let i = 1; i <= p; i++) {
    const d = (closes[i] as number) - (closes[i - 1] as number)
    gain += Math.max(d, 0)
    loss += Math.max(-d, 0)
  }
  gain /= p
  loss /= p
  const value = () => (loss === 0 ? (gain === 0 ? 50 : 100) : 100 - 100 / (1 + gain / loss))
  out[p] = value()
  for (let i = p + 1; i < closes.length; i++) {
    const d = (closes[i] as number) - (closes[i - 1] as number)
    gain = (gain * (p - 1) + Math.max(d, 0)) / p
    loss = (loss * (p - 1) + Math.max(-d, 0)) / p
    out[i] = value()
  }
  return out
}
