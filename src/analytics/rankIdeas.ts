import { compareIdeas } from './compareIdeas.js'
import type { IdeaRead } from './ideaFromBars.js'

export type Worthwhileness = 'strict' | 'loose'
export type IdeaRanking = 'conviction' | 'edge-rate'

/**
 * The least expectancy, in stop distances (R), an idea needs to be listed: edge ÷ S with
 * S = |entry − stop| ÷ entry, which is c × (1 + REWARD_RISK) − 1 for an idea from `ideaFromBars`.
 * strict 0.25 R (conviction ≥ 5/12 ≈ 0.417 at 2R targets); loose anything above 0 R (conviction > 1/3).
 */
export const MIN_EXPECTANCY_R: Readonly<Record<Worthwhileness, number>> = { strict: 0.25, loose: 0 }

/**
 * Ranks ideas for GET /v1/ideas. Pure and deterministic: the same ideas in any order give the same list.
 *
 * Worthwhileness. The spec's "strict = 0.008 … loose = 0.01" are read as the two variants' prices in USD
 * (the table's price column; a higher edge threshold could not give loose its "fuller field"), so the
 * thresholds here are our own, in R so that markets of very different volatility compare:
 *   strict: edge ÷ S ≥ 0.25, and at most one idea per (category, direction): the first in ranking order;
 *   loose: edge ÷ S > 0, no per-category cap.
 * An idea with a null edge or a zero stop distance is never listed.
 *
 * Rankings:
 *   'conviction': conviction descending, then edge descending, then symbol, then pairIndex.
 *   'edge-rate': edge × leverage ÷ holding days (the return on collateral per day to target), descending;
 *     the holding time is the basis's HOLDING_BARS (16) bars, the same for every idea of one basis, so the
 *     order is that of edge × leverage; ties by the conviction order.
 * Then the first `limit` ideas.
 *
 * Throws RangeError when `limit` is not a non-negative integer.
 */
export function rankIdeas(
  ideas: readonly IdeaRead[],
  opts: { limit: number; worthwhileness: Worthwhileness; ranking: IdeaRanking },
): IdeaRead[] {
  const { limit, worthwhileness, ranking } = opts
  if (!(Number.isInteger(limit) && limit >= 0)) throw new RangeError(`limit must be a non-negative integer`)
  const min = MIN_EXPECTANCY_R[worthwhileness]
  const listed = ideas.filter((i) => {
    if (i.edge === null) return false
    const s = Math.abs(i.entry - i.stop) / i.entry
    if (!(s > 0) || !Number.isFinite(s)) return false
    const r = i.edge / s
    return worthwhileness === 'strict' ? r >= min : r > min
  })
  const rate = (i: IdeaRead) => (i.edge ?? 0) * i.leverage
  const sorted =
    ranking === 'conviction'
      ? listed.sort(compareIdeas)
      : listed.sort((a, b) => {
          const ra = rate(a)
          const rb = rate(b)
          return ra !== rb ? (rb > ra ? 1 : -1) : compareIdeas(a, b)
        })
  if (worthwhileness === 'loose') return sorted.slice(0, limit)
  const seen = new Set<string>()
  const out: IdeaRead[] = []
  for (const i of sorted) {
    const key = `${i.category}\u0000${i.direction}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push(i)
    if (out.length === limit) break
  }
  return out.slice(0, limit)
}
