import { z } from 'zod'
import { symbol } from '../../chain/fields.js'
import { prose } from '../../prose.js'

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

export const ideaBasis = z
  .enum(['1d-1y', '6h-30d'])
  .default('1d-1y')
  .describe('Candle basis: 1d-1y (default) daily bars over 365 days, or 6h-30d six-hour bars over 30 days')

export const ideaRanking = z
  .enum(['edge-rate', 'conviction'])
  .default('edge-rate')
  .describe('edge-rate (default): edge × leverage per holding time; conviction: conviction first')

/** Markets an ideas read left out, and why: never a made-up idea. */
export const ideasSkipped = z.object({
  neutral: z
    .array(z.object({ symbol, reason: z.enum(['no_trend', 'stop_too_wide']) }))
    .describe('No direction (no_trend), or no allowed leverage survives the stop (stop_too_wide)'),
  insufficientHistory: z
    .array(z.object({ symbol, needed: z.number().int(), got: z.number().int() }))
    .describe('Fewer bars in the basis window than the rule’s warm-up (25)'),
  unknown: z.array(z.string()).describe('No perp pair SYM/USD with an oracle feed'),
  unavailable: z.array(z.string()).describe('Listed, but no oracle price or no usable bar right now'),
})

/** One market's read in the single-asset form. */
export const assetRead = z.object({
  symbol,
  status: z.enum(['ok', 'neutral', 'insufficient_history']),
  reason: z.enum(['no_trend', 'stop_too_wide']).nullable().describe('Why neutral; null otherwise'),
  needed: z.number().int().nullable().describe('insufficient_history: the warm-up (25); null otherwise'),
  got: z.number().int().nullable().describe('insufficient_history: bars in the window; null otherwise'),
  idea: idea.nullable().describe('With target, liquidation and edge; null unless status is ok'),
})

export const IDEAS_DISCLAIMER_TEXT = z.string().describe('Indicative, not advice')

/** The idea rule, stated once for every ideas route's description. */
export const IDEA_RULES = prose`
  Markets: the perp venue’s pairs SYM/USD (GET /v1/risk/pairs gives pairIndex, the group as \`category\`,
  maxLeverage) at the pair’s oracle price (Pyth), which is the \`entry\` and the markPrice POST
  /v1/tx/risk/open takes.

  Basis (\`basis\`): 1d-1y (default) = daily bars over the last 365 days; 6h-30d = six-hour bars over the
  last 30 days; whole bars from the exchange product SYM-USD when listed, else the oracle history; gaps are
  not filled.

  Rule: EMA(20) of closes seeded with the mean of the first 20; Wilder ATR(14); d = (close − EMA) ÷ ATR, s =
  (EMA − EMA five bars ago) ÷ ATR. Long when d > 0 and s > 0, short when both < 0, else neutral \`no_trend\`
  (also a flat series). conviction = tanh(min(|d|, |s|)). stop = entry ∓ 2 ATR, target = entry ± 4 ATR (2R).

  Range-survival leverage: with S = |entry − stop| ÷ entry and P90 = the 90th percentile of the bar range
  (high − low) ÷ close over the window, the liquidation distance 0.9 ÷ L (the venue liquidates at −90 % of
  collateral) must cover S + max(0.5 S, P90), so the stop sits inside the liquidation distance with a margin
  of half the stop distance and at least one typical bar’s range: L = min(⌊0.9 ÷ (S + max(0.5 S, P90))⌋,
  ⌊maxLeverage⌋); when that is below 2, 1.1 (the venue’s minimum) if 1.1 still survives, else neutral
  \`stop_too_wide\`. It is a ceiling, not a recommendation to use it.

  liquidation = entry × (1 ∓ 0.9 ÷ L). edge = conviction × 2S − (1 − conviction) × S: an expected-return
  proxy as a fraction of entry, unleveraged (positive when conviction > 1/3).

  Fewer than 25 bars in the window: that market is listed in \`skipped.insufficientHistory\` (a 200, never a
  made-up idea). Same market state, same answer. Indicative, not advice.`
