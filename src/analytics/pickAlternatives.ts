import { compareIdeas } from './compareIdeas.js'
import type { IdeaRead } from './ideaFromBars.js'

/** Alternatives listed at most. */
export const MAX_ALTERNATIVES = 3

export interface Alternatives {
  alternatives: IdeaRead[]
  hedge: IdeaRead | null
}

/**
 * Better alternatives and a hedge for one market's read, from the ideas of a universe, for
 * GET /v1/ideas/asset/{sym}. Pure and deterministic. Only ideas with a positive edge are offered, and
 * never the asset itself (matched by symbol and pairIndex).
 *
 * Rate = edge × leverage (the edge-rate ranking's order: return on collateral per holding period).
 * With an idea for the asset:
 *   alternatives: the same-direction ideas whose rate beats the asset's, rate descending (ties by the
 *     conviction order), at most MAX_ALTERNATIVES;
 *   hedge: the best idea (conviction order) in the opposite direction in the asset's own category (the
 *     markets of one category move together, so the opposite position offsets part of the move), else in
 *     any category; null when there is none.
 * Without one (neutral or short of history): alternatives are the universe's best ideas by rate (any
 *   direction), at most MAX_ALTERNATIVES, and there is no hedge (nothing to hedge).
 */
export function pickAlternatives(
  asset: { symbol: string; pairIndex: number; idea: IdeaRead | null },
  universe: readonly IdeaRead[],
): Alternatives {
  const others = universe.filter(
    (i) => !(i.symbol === asset.symbol && i.pairIndex === asset.pairIndex) && i.edge !== null && i.edge > 0,
  )
  const rate = (i: IdeaRead) => (i.edge ?? 0) * i.leverage
  const byRate = (a: IdeaRead, b: IdeaRead) => {
    const d = rate(b) - rate(a)
    return d !== 0 ? d : compareIdeas(a, b)
  }
  const { idea } = asset
  if (idea === null) return { alternatives: others.sort(byRate).slice(0, MAX_ALTERNATIVES), hedge: null }

  const own = rate(idea)
  const alternatives = others
    .filter((i) => i.direction === idea.direction && rate(i) > own)
    .sort(byRate)
    .slice(0, MAX_ALTERNATIVES)
  const opposite = others.filter((i) => i.direction !== idea.direction).sort(compareIdeas)
  const hedge = opposite.find((i) => i.category === idea.category) ?? opposite[0] ?? null
  return { alternatives, hedge }
}
