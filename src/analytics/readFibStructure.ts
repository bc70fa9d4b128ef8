import { clamp01 } from './clamp01.js'

/** Retracement levels the read measures against. */
export const FIB_LEVELS = [0.236, 0.382, 0.5, 0.618, 0.786] as const
/** Confidence falls linearly to 0 at this distance (in retracement units) from the nearest level. */
export const FIB_TOLERANCE = 0.05

export interface FibStructure {
  /** `up` when the window's lowest close came before its highest, else `down`. */
  swing: 'up' | 'down'
  /** How much of the swing the last close has given back, 0..1 (0 = at the swing's end). */
  retracement: number
  /** The Fibonacci level nearest to `retracement`. */
  level: number
  /** 0..1: 1 − |retracement − level| / FIB_TOLERANCE, floored at 0. */
  confidence: number
}

/**
 * Fibonacci-structure read over closes, oldest first. The swing runs between the window's lowest and
 * highest close, in the order they occurred; the last close's retracement of it is compared with the
 * levels 0.236, 0.382, 0.5, 0.618 and 0.786. Confidence says how squarely price sits on a level (a
 * pullback holding a level continues the swing). Null with fewer than two closes or a flat window.
 */
export function readFibStructure(closes: readonly number[]): FibStructure | null {
  if (closes.length < 2) return null
  let hi = 0
  let lo = 0
  for (let i = 1; i < closes.length; i++) {
    const v = closes[i] as number
    if (v > (closes[hi] as number)) hi = i
    if (v < (closes[lo] as number)) lo = i
  }
  const high = closes[hi] as number
  const low = closes[lo] as number
  const range = high - low
  if (!(range > 0)) return null
  const close = closes.at(-1) as number
  const swing = lo < hi ? 'up' : 'down'
  const retracement = swing === 'up' ? (high - close) / range : (close - low) / range
  let level: number = FIB_LEVELS[0]
  for (const l of FIB_LEVELS) if (Math.abs(retracement - l) < Math.abs(retracement - level)) level = l
  const confidence = clamp01(1 - Math.abs(retracement - level) / FIB_TOLERANCE)
  return { swing, retracement, level, confidence }
}
