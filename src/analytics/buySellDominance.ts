import type { Bar } from './bar.js'
import { type InsufficientHistory, insufficientHistory } from './insufficientHistory.js'

/** Bars a dominance read needs. */
export const DOMINANCE_MIN_BARS = 10
/** buyPct at or above this is buy dominance; at or below DOMINANCE_SELL_PCT, sell; between, even. */
export const DOMINANCE_BUY_PCT = 55
export const DOMINANCE_SELL_PCT = 45

export type DominanceSide = 'buy' | 'sell' | 'even'

export interface Dominance {
  status: 'ok'
  /** Buy share, 0..100. */
  buyPct: number
  /** Sell share, 0..100; buyPct + sellPct = 100. */
  sellPct: number
  dominance: DominanceSide
  /** `volume` when any bar has volume above 0; `count` (each bar weighs 1) when every volume is null or 0. */
  basis: 'volume' | 'count'
}

/** The side for a buy share: buy at ≥ DOMINANCE_BUY_PCT, sell at ≤ DOMINANCE_SELL_PCT, else even. */
export function dominanceSide(buyPct: number): DominanceSide {
  return buyPct >= DOMINANCE_BUY_PCT ? 'buy' : buyPct <= DOMINANCE_SELL_PCT ? 'sell' : 'even'
}

/**
 * Buy/sell dominance over bars (any order; time is not used, so gaps change nothing). A bar is up when
 * close > open, down when close < open, and a doji (close = open) counts half up, half down. Each bar
 * weighs its volume (a null volume weighs 0) when any bar has volume above 0 (`basis: 'volume'`);
 * otherwise each bar weighs 1 (`basis: 'count'`). buyPct = 100 × Σ weight of up bars (+ half the dojis)
 * ÷ Σ weight; sellPct likewise for the down bars. Dominance: buy when buyPct ≥ 55, sell when ≤ 45, else
 * even. Fewer than DOMINANCE_MIN_BARS (10) bars give `insufficient_history`. Throws RangeError on a
 * non-finite open or close, or a negative or non-finite volume.
 */
export function buySellDominance(bars: readonly Bar[]): Dominance | InsufficientHistory {
  let anyVolume = false
  for (let i = 0; i < bars.length; i++) {
    const b = bars[i] as Bar
    if (!Number.isFinite(b.open) || !Number.isFinite(b.close)) {
      throw new RangeError(`bar ${i}: open and close must be finite numbers`)
    }
    if (b.volume !== null && !(Number.isFinite(b.volume) && b.volume >= 0)) {
      throw new RangeError(`bar ${i}: volume must be null or a finite number >= 0`)
    }
    if (b.volume !== null && b.volume > 0) anyVolume = true
  }
  if (bars.length < DOMINANCE_MIN_BARS) return insufficientHistory(DOMINANCE_MIN_BARS, bars.length)
  let buy = 0
  let sell = 0
  for (const b of bars) {
    const w = anyVolume ? (b.volume ?? 0) : 1
    if (b.close > b.open) buy += w
    else if (b.close < b.open) sell += w
    else {
      buy += w / 2
      sell += w / 2
    }
  }
  const total = buy + sell
  const buyPct = (100 * buy) / total
  const sellPct = (100 * sell) / total
  return {
    status: 'ok',
    buyPct,
    sellPct,
    dominance: dominanceSide(buyPct),
    basis: anyVolume ? 'volume' : 'count',
  }
}
