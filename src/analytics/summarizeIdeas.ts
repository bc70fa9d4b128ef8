import { compareIdeas } from './compareIdeas.js'
import type { IdeaRead, NeutralRead } from './ideaFromBars.js'
import type { InsufficientHistory } from './insufficientHistory.js'
import { partitionByEdge, type SkippedIdea, type Worthwhileness } from './rankIdeas.js'

export interface IdeasSummary {
  bestLong: IdeaRead | null
  bestShort: IdeaRead | null
  /** The best idea of each category present among the eligible ideas (crypto, forex, commodities, …). */
  topByCategory: Record<string, IdeaRead>
  breadth: { long: number; short: number; neutral: number }
  /** The ideas whose edge passes the threshold, in the conviction order: the picks are drawn from these. */
  eligible: IdeaRead[]
  /** The ideas whose edge does not pass it (`edge_below_threshold` with the threshold), highest edge first. */
  belowThreshold: SkippedIdea[]
}

/**
 * The market-wide aggregate of GET /v1/ideas/summary over one read per market. Pure and deterministic.
 *
 * The picks are drawn from the eligible ideas: those whose edge passes `worthwhileness`'s threshold, the
 * same filter as GET /v1/ideas (`partitionByEdge`: strict edge ≥ 0.008, loose edge > 0), without its
 * one-per-category cap or its limit. The others are returned in `belowThreshold`, so a market with a
 * direction but too little edge is never a pick and is still accounted for.
 *
 * "Best" is the conviction order (`compareIdeas`: conviction, then edge, then symbol, then pairIndex).
 * bestLong / bestShort: the best eligible long / short idea, null when there is none. topByCategory: the
 * best eligible idea (either direction) of each category that has one; keys are the categories as given,
 * inserted in ascending order. breadth: how many reads are long, short or neutral, whatever their edge
 * (the rule's direction, market-wide); `insufficient_history` reads are counted in none of them.
 */
export function summarizeIdeas(
  reads: readonly (IdeaRead | NeutralRead | InsufficientHistory)[],
  opts: { worthwhileness: Worthwhileness },
): IdeasSummary {
  const breadth = { long: 0, short: 0, neutral: 0 }
  const ideas: IdeaRead[] = []
  for (const r of reads) {
    if ('status' in r) {
      if (r.status === 'neutral') breadth.neutral++
      continue
    }
    breadth[r.direction]++
    ideas.push(r)
  }
  const { passing, below } = partitionByEdge(ideas, opts.worthwhileness)
  const eligible = passing.sort(compareIdeas)
  const best = new Map<string, IdeaRead>()
  for (const i of eligible) if (!best.has(i.category)) best.set(i.category, i)
  // fromEntries defines own properties, so a category such as `__proto__` stays an ordinary key.
  const topByCategory: Record<string, IdeaRead> = Object.fromEntries(
    [...best.keys()].sort().map((c) => [c, best.get(c) as IdeaRead]),
  )
  return {
    bestLong: eligible.find((i) => i.direction === 'long') ?? null,
    bestShort: eligible.find((i) => i.direction === 'short') ?? null,
    topByCategory,
    breadth,
    eligible,
    belowThreshold: below,
  }
}
