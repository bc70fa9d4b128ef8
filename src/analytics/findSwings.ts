/** A confirmed swing point: the price turned by at least the threshold after it. */
export interface Swing {
  index: number
  value: number
  kind: 'high' | 'low'
}

/**
 * Zigzag swing points of a series: a high (low) is confirmed once the series has fallen (risen) from it by
 * at least `threshold`, in the series' own units. Highs and lows alternate; the leg still running at the
 * end (its extreme not yet confirmed) is not listed. Pure: numbers in, swings out.
 */
export function findSwings(values: readonly number[], threshold: number): Swing[] {
  const swings: Swing[] = []
  if (values.length === 0) return swings
  const at = (i: number) => values[i] as number
  let dir: -1 | 0 | 1 = 0
  let hi = 0
  let lo = 0
  let ext = 0
  for (let i = 1; i < values.length; i++) {
    const v = at(i)
    if (dir === 0) {
      if (v > at(hi)) hi = i
      if (v < at(lo)) lo = i
      if (at(hi) - at(lo) >= threshold && hi !== lo) {
        // The first leg's start is the first swing; the leg runs on from the other extreme.
        if (lo < hi) {
          swings.push({ index: lo, value: at(lo), kind: 'low' })
          dir = 1
          ext = hi
        } else {
          swings.push({ index: hi, value: at(hi), kind: 'high' })
          dir = -1
          ext = lo
        }
      }
    } else if (dir === 1) {
      if (v >= at(ext)) ext = i
      else if (at(ext) - v >= threshold) {
        swings.push({ index: ext, value: at(ext), kind: 'high' })
        dir = -1
        ext = i
      }
    } else if (v <= at(ext)) ext = i
    else if (v - at(ext) >= threshold) {
      swings.push({ index: ext, value: at(ext), kind: 'low' })
      dir = 1
      ext = i
    }
  }
  return swings
}

/** Mean absolute bar-to-bar change: the series' own noise scale (0 for fewer than two values). */
export function meanAbsChange(values: readonly number[]): number {
  if (values.length < 2) return 0
  let sum = 0
  for (let i = 1; i < values.length; i++) sum += Math.abs((values[i] as number) - (values[i - 1] as number))
  return sum / (values.length - 1)
}
