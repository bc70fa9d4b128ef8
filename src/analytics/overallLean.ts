import { type Dominance, type DominanceSide, dominanceSide } from './buySellDominance.js'

/**
 * One lean across timeframes: the plain mean of the frames' buyPct, read with the frame thresholds (buy at
 * ≥ 55, sell at ≤ 45, else even). Each frame weighs the same, not by volume: the 1m, 5m and 15m frames
 * cover the same trades, so volume-weighting would count them again. No frames: `even`.
 */
export function overallLean(frames: readonly Dominance[]): DominanceSide {
  if (frames.length === 0) return 'even'
  const mean = frames.reduce((a, f) => a + f.buyPct, 0) / frames.length
  return dominanceSide(mean)
}
