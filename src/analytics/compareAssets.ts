import type { Bar } from './bar.js'
import { type InsufficientHistory, insufficientHistory } from './insufficientHistory.js'

/** Common bars the pair read needs. */
export const COMPARE_MIN_BARS = 20
/** |z| at or above this suggests the mean-reversion pair trade. */
export const COMPARE_Z_ENTRY = 2
/** A standard deviation at most this × max(1, |mean|) counts as 0 (a flat series, up to rounding). */
export const FLAT_TOLERANCE = 1e-12

/** Which leg to buy and which to sell: `a` and `b` are the first and second argument of compareAssets. */
export interface PairSuggestion {
  long: 'a' | 'b'
  short: 'a' | 'b'
}

export interface PairRead {
  status: 'ok'
  /** Common bars used, and the first and last common t. */
  bars: number
  from: number
  to: number
  /** Last close of a ÷ last close of b. */
  ratio: number
  /** (last a ÷ first a − 1) × 100 − (last b ÷ first b − 1) × 100 over the common window, percent. */
  relativeStrength: number
  /**
   * The ratio's trend: the least-squares slope of the log-ratio against the bar number, as percent per
   * bar ((e^slope − 1) × 100).
   */
  ratioSlopePctPerBar: number
  /** up / down when the fitted move over the window, |slope| × (n − 1), is at least one σ of the log-ratio. */
  ratioTrend: 'up' | 'down' | 'flat'
  /** (last log-ratio − its window mean) ÷ its window standard deviation; null when that is 0 (flat ratio). */
  zScore: number | null
  /** Pearson correlation of the two legs' log returns; null when either leg's returns have no variance. */
  correlation: number | null
  suggestion: PairSuggestion | null
}

/**
 * Relative strength of a against b for GET /v1/ideas/compare. Pure and deterministic.
 *
 * Alignment: only timestamps present in both series count (an inner join on t, ascending); a bar missing
 * from either leg is dropped from both, so a return across a gap spans the same time on both legs. Fewer
 * than COMPARE_MIN_BARS (20) common bars → `insufficient_history`.
 * Over the n common bars, with x_i = ln(a_i ÷ b_i) of the closes:
 *   ratio = a_n ÷ b_n; relativeStrength as on PairRead;
 *   ratio trend: slope = the least-squares slope of x_i against i (i = 0..n − 1), reported as
 *     (e^slope − 1) × 100 percent per bar; ratioTrend up / down when |slope| × (n − 1) ≥ σ(x) (the fitted
 *     move over the window is at least one standard deviation of the log-ratio), else flat (also a flat
 *     ratio);
 *   zScore = (x_n − mean(x)) ÷ σ(x), σ the population standard deviation over all n values (the last
 *     included); null when σ ≤ 1e-12 × max(1, |mean|);
 *   correlation = Pearson of r^a_i = ln(a_i ÷ a_{i−1}) and r^b_i (n − 1 pairs, population moments); null
 *     when either σ is 0 by the same tolerance;
 *   suggestion (mean reversion: buy the leg that is cheap against the pair's own mean): z ≥ 2 → a is rich,
 *     { long: 'b', short: 'a' }; z ≤ −2 → { long: 'a', short: 'b' }; otherwise, or z null, null.
 *
 * Throws RangeError on a close that is not a positive finite number.
 */
export function compareAssets(a: readonly Bar[], b: readonly Bar[]): PairRead | InsufficientHistory {
  for (const leg of [a, b]) {
    for (const bar of leg) {
      if (!(Number.isFinite(bar.close) && bar.close > 0)) {
        throw new RangeError(`close at t=${bar.t} must be a positive number`)
      }
    }
  }
  const closesB = new Map<number, number>()
  for (const bar of b) closesB.set(bar.t, bar.close)
  const joined = new Map<number, [number, number]>()
  for (const bar of a) {
    const cb = closesB.get(bar.t)
    if (cb !== undefined) joined.set(bar.t, [bar.close, cb])
  }
  const ts = [...joined.keys()].sort((x, y) => x - y)
  const n = ts.length
  if (n < COMPARE_MIN_BARS) return insufficientHistory(COMPARE_MIN_BARS, n)

  const pa = ts.map((t) => (joined.get(t) as [number, number])[0])
  const pb = ts.map((t) => (joined.get(t) as [number, number])[1])
  const first = (xs: number[]) => xs[0] as number
  const last = (xs: number[]) => xs[n - 1] as number

  const ratio = last(pa) / last(pb)
  const relativeStrength = (last(pa) / first(pa) - 1) * 100 - (last(pb) / first(pb) - 1) * 100

  const x = pa.map((v, i) => Math.log(v / (pb[i] as number)))
  const mx = mean(x)
  const sx = std(x, mx)
  const zScore = isFlat(sx, mx) ? null : (last(x) - mx) / sx

  // Least-squares slope of x_i on i = 0..n−1: Σ (i − ī)(x_i − x̄) ÷ Σ (i − ī)².
  const mi = (n - 1) / 2
  let sxy = 0
  let sii = 0
  for (let i = 0; i < n; i++) {
    sxy += (i - mi) * ((x[i] as number) - mx)
    sii += (i - mi) ** 2
  }
  const slope = sxy / sii
  const fittedMove = slope * (n - 1)
  const ratioTrend = isFlat(sx, mx) || Math.abs(fittedMove) < sx ? 'flat' : fittedMove > 0 ? 'up' : 'down'

  const ra: number[] = []
  const rb: number[] = []
  for (let i = 1; i < n; i++) {
    ra.push(Math.log((pa[i] as number) / (pa[i - 1] as number)))
    rb.push(Math.log((pb[i] as number) / (pb[i - 1] as number)))
  }
  const ma = mean(ra)
  const mb = mean(rb)
  const sa = std(ra, ma)
  const sb = std(rb, mb)
  let correlation: number | null = null
  if (!isFlat(sa, ma) && !isFlat(sb, mb)) {
    let cov = 0
    for (let i = 0; i < ra.length; i++) cov += ((ra[i] as number) - ma) * ((rb[i] as number) - mb)
    cov /= ra.length
    correlation = Math.max(-1, Math.min(1, cov / (sa * sb)))
  }

  let suggestion: PairSuggestion | null = null
  if (zScore !== null && zScore >= COMPARE_Z_ENTRY) suggestion = { long: 'b', short: 'a' }
  else if (zScore !== null && zScore <= -COMPARE_Z_ENTRY) suggestion = { long: 'a', short: 'b' }

  return {
    status: 'ok',
    bars: n,
    from: first(ts),
    to: last(ts),
    ratio,
    relativeStrength,
    ratioSlopePctPerBar: Math.expm1(slope) * 100,
    ratioTrend,
    zScore,
    correlation,
    suggestion,
  }
}

function mean(xs: readonly number[]): number {
  let s = 0
  for (const v of xs) s += v
  return s / xs.length
}

function std(xs: readonly number[], m: number): number {
  let s = 0
  for (const v of xs) s += (v - m) ** 2
  return Math.sqrt(s / xs.length)
}

function isFlat(sigma: number, m: number): boolean {
  return sigma <= FLAT_TOLERANCE * Math.max(1, Math.abs(m))
}
