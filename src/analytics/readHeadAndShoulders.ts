import { clamp01 } from './clamp01.js'
import { findSwings, meanAbsChange, type Swing } from './findSwings.js'

export type HeadAndShouldersPattern = 'none' | 'top' | 'inverse'

export interface HeadAndShouldersRead {
  /** `top`: bearish reversal (head above two shoulders); `inverse`: bullish (head below); else `none`. */
  pattern: HeadAndShouldersPattern
  /** 0..1; 0 exactly when the pattern is `none`. */
  confidence: number
}

/** Swings are zigzag turns of at least this many mean bar-to-bar moves. */
export const HS_SWING_MULTIPLE = 4
/** A shape scoring below this is not reported. */
export const HS_MIN_CONFIDENCE = 0.5

const NONE: HeadAndShouldersRead = { pattern: 'none', confidence: 0 }

/**
 * Head-and-shoulders read over closes, oldest first. Swings: zigzag with a turn of at least
 * HS_SWING_MULTIPLE × the mean absolute close-to-close change. A top is the last five swings ending at the
 * last confirmed high: left shoulder, trough, head, trough, right shoulder, with the head above both
 * shoulders, both shoulders above the neckline (the line through the two troughs), and no close since the
 * right shoulder above it. Its confidence blends
 *   0.3 × shoulder symmetry   1 − |hL − hR| / hH   (heights above the neckline)
 * + 0.2 × head prominence     (hH − max(hL, hR)) / (0.3 hH), capped at 1
 * + 0.1 × time symmetry       min(dL, dR) / max(dL, dR)   (bars shoulder→head, head→shoulder)
 * + 0.4 × neckline break      1 once the last close is below the neckline, else half the way the close
 *                             has come from the right shoulder down to the neckline
 * and a shape under HS_MIN_CONFIDENCE reads `none`. The inverse pattern is the same read on the mirrored
 * series; when both qualify the higher confidence wins.
 */
export function readHeadAndShoulders(closes: readonly number[]): HeadAndShouldersRead {
  const threshold = HS_SWING_MULTIPLE * meanAbsChange(closes)
  if (!(threshold > 0)) return NONE
  const top = readTop(closes, threshold)
  const inverse = readTop(
    closes.map((c) => -c),
    threshold,
  )
  const best =
    inverse > top ? { pattern: 'inverse' as const, c: inverse } : { pattern: 'top' as const, c: top }
  return best.c >= HS_MIN_CONFIDENCE ? { pattern: best.pattern, confidence: best.c } : NONE
}

/** Confidence (0..1) of a head-and-shoulders top ending at the last confirmed swing high; 0 when none. */
function readTop(values: readonly number[], threshold: number): number {
  const swings = findSwings(values, threshold)
  let last = swings.length - 1
  while (last >= 0 && (swings[last] as Swing).kind !== 'high') last--
  if (last < 4) return 0
  const [ls, t1, head, t2, rs] = swings.slice(last - 4, last + 1) as [Swing, Swing, Swing, Swing, Swing]
  const close = values.at(-1) as number
  for (let i = rs.index + 1; i < values.length; i++) if ((values[i] as number) > rs.value) return 0

  const slope = (t2.value - t1.value) / (t2.index - t1.index)
  const neck = (i: number) => t1.value + slope * (i - t1.index)
  const hH = head.value - neck(head.index)
  const hL = ls.value - neck(ls.index)
  const hR = rs.value - neck(rs.index)
  if (!(hH > 0 && hL > 0 && hR > 0 && head.value > ls.value && head.value > rs.value)) return 0

  const shoulderSymmetry = clamp01(1 - Math.abs(hL - hR) / hH)
  const headProminence = clamp01((hH - Math.max(hL, hR)) / (0.3 * hH))
  if (shoulderSymmetry === 0 || headProminence === 0) return 0
  const dL = head.index - ls.index
  const dR = rs.index - head.index
  const timeSymmetry = Math.min(dL, dR) / Math.max(dL, dR)
  const neckNow = neck(values.length - 1)
  const drop = rs.value - neckNow
  const neckBreak = close < neckNow ? 1 : drop > 0 ? 0.5 * clamp01((rs.value - close) / drop) : 0
  return 0.3 * shoulderSymmetry + 0.2 * headProminence + 0.1 * timeSymmetry + 0.4 * neckBreak
}
