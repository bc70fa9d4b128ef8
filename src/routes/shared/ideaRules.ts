import { prose } from '../../prose.js'

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
