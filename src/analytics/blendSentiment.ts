/** The blend's inputs: each indicator mapped to 0..1 (0 = bearish, 0.5 = neutral, 1 = bullish). */
export interface SignalParts {
  rsi: number | null
  macd: number | null
  bollinger: number | null
  vwap: number | null
  sma: number | null
  headAndShoulders: number | null
  fib: number | null
}

/** Weight of each part in the blend (they sum to 1). */
export const BLEND_WEIGHTS: Readonly<Record<keyof SignalParts, number>> = {
  rsi: 0.15,
  macd: 0.2,
  bollinger: 0.15,
  vwap: 0.1,
  sma: 0.15,
  headAndShoulders: 0.15,
  fib: 0.1,
}

/** Sentiment at or above this is a long bias; at or below 1 minus it, short; between, neutral. */
export const LONG_THRESHOLD = 0.55
export const SHORT_THRESHOLD = 0.45
/** Sentiment is stated (and the bias decided) at this many decimals. */
export const SENTIMENT_DECIMALS = 4

export type Bias = 'long' | 'short' | 'neutral'

export interface Blend {
  /** Σ wᵢ·partᵢ / Σ wᵢ over the parts present, rounded to SENTIMENT_DECIMALS; null when no part is. */
  sentiment: number | null
  bias: Bias | null
  /** 2 × |sentiment − 0.5|, 0..1; null with sentiment. */
  conviction: number | null
}

/**
 * Weighted mean of the parts that are present (a null part, such as VWAP on a source without volume,
 * drops out and the other weights are renormalized), then bias by the thresholds and conviction as the
 * distance from neutral.
 */
export function blendSentiment(parts: SignalParts): Blend {
  let sum = 0
  let weight = 0
  for (const key of Object.keys(BLEND_WEIGHTS) as (keyof SignalParts)[]) {
    const p = parts[key]
    if (p === null) continue
    sum += BLEND_WEIGHTS[key] * p
    weight += BLEND_WEIGHTS[key]
  }
  if (weight === 0) return { sentiment: null, bias: null, conviction: null }
  const f = 10 ** SENTIMENT_DECIMALS
  const sentiment = Math.round((sum / weight) * f) / f
  const bias: Bias = sentiment >= LONG_THRESHOLD ? 'long' : sentiment <= SHORT_THRESHOLD ? 'short' : 'neutral'
  const conviction = Math.round(2 * Math.abs(sentiment - 0.5) * f) / f
  return { sentiment, bias, conviction }
}
