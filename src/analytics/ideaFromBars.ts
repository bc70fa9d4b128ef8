import { z } from 'zod'
import { symbol } from '../chain/fields.js'
import type { Bar } from './bar.js'
import { type InsufficientHistory, insufficientHistory } from './insufficientHistory.js'

/**
 * The candle basis of an idea. `'6h-30d'`: six-hour bars (21 600 s) over the last 30 days (≈ 120 bars);
 * `'1d-1y'`: daily bars (86 400 s) over the last 365 days (≈ 365 bars). The caller picks the default.
 */
export const ideaBasis = z
  .enum(['1d-1y', '6h-30d'])
  .default('1d-1y')
  .describe('Candle basis: 1d-1y (default) daily bars over 365 days, or 6h-30d six-hour bars over 30 days')

export type IdeaBasis = z.output<typeof ideaBasis>

/** Bar length and look-back window of each basis, in seconds. */
export const IDEA_BASES: Readonly<Record<IdeaBasis, { barSec: number; windowSec: number }>> = {
  '6h-30d': { barSec: 21_600, windowSec: 30 * 86_400 },
  '1d-1y': { barSec: 86_400, windowSec: 365 * 86_400 },
}

/** The market an idea is for, as `/v1/risk/pairs` and the price read give it. */
export interface IdeaMarket {
  symbol: string
  pairIndex: number
  category: string
  maxLeverage: number
  /** Current mark price: the entry. */
  mark: number
}

/** The body fields of POST /v1/tx/risk/open that act on an idea, pre-filled. */
export const riskOpenInputs = z.object({
  pairIndex: z.number().int(),
  long: z.boolean(),
  leverage: z.number(),
  markPrice: z.number().describe('The entry: the oracle price the idea was read at'),
  tradeType: z.literal(0),
  tp: z.number().describe('The target'),
  sl: z.number().describe('The stop'),
})

/** A leverage idea. The single-asset forms also fill target, liquidation and edge. */
export const idea = z.object({
  symbol,
  pairIndex: z.number().int(),
  category: z.string().describe('The perp venue’s group: crypto, forex, commodities, indices, stocks'),
  direction: z.enum(['long', 'short']),
  entry: z.number().describe('The oracle price of the pair now'),
  stop: z.number().describe('entry ∓ 2 ATR'),
  target: z.number().nullable().describe('entry ± 4 ATR (2R); null in ranked lists (see open.tp)'),
  liquidation: z
    .number()
    .nullable()
    .describe('entry × (1 ∓ 0.9 ÷ leverage), the venue’s −90 % collateral line; null in ranked lists'),
  edge: z
    .number()
    .nullable()
    .describe('conviction × 2S − (1 − conviction) × S, S = stop distance ÷ entry; null in ranked lists'),
  leverage: z.number().describe('Suggested range-survival leverage, capped at the pair maximum'),
  maxLeverage: z.number().describe('The pair’s maximum, as GET /v1/risk/pairs reports it'),
  conviction: z.number().describe('tanh(min(|d|, |s|)), 0..1'),
  open: riskOpenInputs.describe('Inputs for POST /v1/tx/risk/open (add collateralUsdc and owner)'),
})

/** A leverage idea as the reads publish it. */
export type IdeaRead = z.output<typeof idea>

/** No idea for this market: the trend rule found no direction, or no allowed leverage survives the stop. */
export interface NeutralRead {
  status: 'neutral'
  symbol: string
  category: string
  reason: 'no_trend' | 'stop_too_wide'
}

/** Fewer bars in the basis window than the rule needs (the shared result, plus the market's symbol). */
export type IdeaInsufficientHistory = InsufficientHistory & { symbol: string }

export const EMA_PERIOD = 20
/** The EMA slope is read over this many bars. */
export const SLOPE_BARS = 5
export const ATR_PERIOD = 14
/** Stop distance in ATRs. */
export const STOP_ATR = 2
/** Target distance in stop distances (reward : risk). */
export const REWARD_RISK = 2
/** gTrade's simplified liquidation: the position is closed when it has lost 90% of its collateral. */
export const LIQ_FRACTION = 0.9
/** The liquidation distance must exceed the stop distance by at least this share of the stop distance… */
export const STOP_MARGIN = 0.5
/** …and by at least this percentile of the bar range (high − low) / close over the window. */
export const RANGE_PERCENTILE = 0.9
/** gTrade's minimum leverage. */
export const MIN_LEVERAGE = 1.1
/** Bars the rule needs in the window: the EMA seed (20 closes) plus the slope look-back (5). */
export const IDEA_WARMUP_BARS = EMA_PERIOD + SLOPE_BARS
/**
 * Expected bars to reach the target, used by the edge-rate ranking: the random-walk first-passage scale
 * (distance ÷ per-bar range)², with the target REWARD_RISK × STOP_ATR ATRs away: (2 × 2)² = 16 bars
 * (4 days on 6h bars, 16 days on daily bars).
 */
export const HOLDING_BARS = (REWARD_RISK * STOP_ATR) ** 2

/**
 * One market's leverage idea from its candles: a pure function (no I/O, no clock); the same bars, market
 * and basis give the same answer.
 *
 * Window: only bars with t > last.t − windowSec of the basis count (30 or 365 days); gaps are not filled:
 * the indicators run over the bars present, and the true range of the bar after a gap includes the jump
 * from the previous close. Fewer than IDEA_WARMUP_BARS (25) bars in the window → `insufficient_history`.
 *
 * Indicators over the window's bars:
 *   EMA(20): seeded with the mean of the first 20 closes, then EMA += (2/21)(close − EMA).
 *   ATR(14) (Wilder): TR = max(h − l, |h − prev close|, |l − prev close|) from the second bar on; the first
 *     ATR is the mean of the first 14 TRs, then ATR = (13 ATR + TR) / 14.
 *   position d = (last close − EMA) / ATR; slope s = (EMA now − EMA 5 bars ago) / ATR.
 * Direction: long when d > 0 and s > 0, short when d < 0 and s < 0; otherwise (mixed signs, a zero, or
 *   ATR = 0: a flat series) `neutral` with reason `no_trend`.
 * Conviction = tanh(min(|d|, |s|)), 0..1: both the close's distance above (below) the EMA and the EMA's
 *   slope must be large, in ATRs, for a high conviction.
 * Entry = mark. Stop = entry ∓ STOP_ATR × ATR (2 ATRs; below for a long). Target = entry ± REWARD_RISK ×
 *   |entry − stop| (2R).
 * Range-survival leverage: with S = |entry − stop| / entry and P90 = the 90th percentile (nearest rank:
 *   the ⌈0.9 n⌉-th smallest) of (high − low) / close over the window, the liquidation distance 0.9 / L
 *   must be at least D = S + max(0.5 S, P90): the liquidation sits beyond the stop by half the stop
 *   distance and by at least one typical bar range. L = min(⌊0.9 / D⌋, ⌊maxLeverage⌋). When that is
 *   below 2, L = 1.1 (gTrade's minimum) if 0.9 / 1.1 ≥ D and maxLeverage ≥ 1.1; otherwise `neutral`
 *   with reason `stop_too_wide` (also when the stop or target would be ≤ 0).
 * Liquidation = entry × (1 ∓ 0.9 / L) (gTrade's simplified liquidation; below the entry for a long).
 * Edge = c × T − (1 − c) × S with c = conviction, T = |target − entry| / entry, S as above: an
 *   expected-return proxy as a fraction of entry, unleveraged; positive when c > 1 / (1 + REWARD_RISK) = 1/3.
 * `open` carries the POST /v1/tx/risk/open inputs: markPrice = entry, tp = target, sl = stop, tradeType 0.
 *
 * Throws RangeError on a mark or bar price that is not a positive finite number, a non-finite
 * maxLeverage, or bars out of time order.
 */
export function ideaFromBars(
  bars: readonly Bar[],
  market: IdeaMarket,
  basis: IdeaBasis,
): IdeaRead | NeutralRead | IdeaInsufficientHistory {
  const { symbol, pairIndex, category, maxLeverage, mark } = market
  if (!(Number.isFinite(mark) && mark > 0))
    throw new RangeError(`mark must be a positive number, got ${mark}`)
  if (!Number.isFinite(maxLeverage)) throw new RangeError(`maxLeverage must be finite, got ${maxLeverage}`)
  for (let i = 0; i < bars.length; i++) {
    const b = bars[i] as Bar
    for (const v of [b.high, b.low, b.close]) {
      if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`bar ${i} has a price that is not positive`)
    }
    if (i > 0 && !(b.t > (bars[i - 1] as Bar).t)) throw new RangeError(`bar ${i} is not after bar ${i - 1}`)
  }

  const lastT = bars.length === 0 ? 0 : (bars.at(-1) as Bar).t
  const from = lastT - IDEA_BASES[basis].windowSec
  const w = bars.filter((b) => b.t > from)
  const n = w.length
  if (n < IDEA_WARMUP_BARS) return { ...insufficientHistory(IDEA_WARMUP_BARS, n), symbol }

  const at = (i: number) => w[i] as Bar
  // EMA(20), seeded with the SMA of the first 20 closes; emas[j] is the EMA at bar EMA_PERIOD − 1 + j.
  let ema = 0
  for (let i = 0; i < EMA_PERIOD; i++) ema += at(i).close
  ema /= EMA_PERIOD
  const alpha = 2 / (EMA_PERIOD + 1)
  const emas = [ema]
  for (let i = EMA_PERIOD; i < n; i++) {
    ema += alpha * (at(i).close - ema)
    emas.push(ema)
  }
  const emaNow = emas.at(-1) as number
  const emaThen = emas[emas.length - 1 - SLOPE_BARS] as number

  // Wilder ATR(14).
  let atr = 0
  for (let i = 1; i < n; i++) {
    const b = at(i)
    const prev = at(i - 1).close
    const tr = Math.max(b.high - b.low, Math.abs(b.high - prev), Math.abs(b.low - prev))
    if (i <= ATR_PERIOD) atr += tr / ATR_PERIOD
    else atr = (atr * (ATR_PERIOD - 1) + tr) / ATR_PERIOD
  }

  const close = at(n - 1).close
  if (!(atr > 0)) return { status: 'neutral', symbol, category, reason: 'no_trend' }
  const d = (close - emaNow) / atr
  const s = (emaNow - emaThen) / atr
  const long = d > 0 && s > 0
  const short = d < 0 && s < 0
  if (!long && !short) return { status: 'neutral', symbol, category, reason: 'no_trend' }
  const conviction = Math.tanh(Math.min(Math.abs(d), Math.abs(s)))

  const sign = long ? 1 : -1
  const entry = mark
  const stop = entry - sign * STOP_ATR * atr
  const target = entry + sign * REWARD_RISK * STOP_ATR * atr
  const tooWide: NeutralRead = { status: 'neutral', symbol, category, reason: 'stop_too_wide' }
  if (!(stop > 0 && target > 0)) return tooWide

  const ranges = w.map((b) => (b.high - b.low) / b.close).sort((x, y) => x - y)
  const p90 = ranges[Math.ceil(RANGE_PERCENTILE * n) - 1] as number
  const stopFrac = (STOP_ATR * atr) / entry
  const required = stopFrac + Math.max(STOP_MARGIN * stopFrac, p90)
  let leverage = Math.min(Math.floor(LIQ_FRACTION / required), Math.floor(maxLeverage))
  if (leverage < 2) {
    if (maxLeverage >= MIN_LEVERAGE && LIQ_FRACTION / MIN_LEVERAGE >= required) leverage = MIN_LEVERAGE
    else return tooWide
  }
  const liquidation = entry * (1 - (sign * LIQ_FRACTION) / leverage)
  const targetFrac = REWARD_RISK * stopFrac
  const edge = conviction * targetFrac - (1 - conviction) * stopFrac

  return {
    symbol,
    pairIndex,
    category,
    direction: long ? 'long' : 'short',
    entry,
    stop,
    target,
    liquidation,
    edge,
    leverage,
    maxLeverage,
    conviction,
    open: { pairIndex, long, leverage, markPrice: entry, tradeType: 0, tp: target, sl: stop },
  }
}
