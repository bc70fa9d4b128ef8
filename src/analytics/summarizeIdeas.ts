import { compareIdeas } from './compareIdeas.js'
import type { IdeaRead, NeutralRead } from './ideaFromBars.js'
import type { InsufficientHistory } from './insufficientHistory.js'

export interface IdeasSummary {
  bestLong: IdeaRead | null
  bestShort: IdeaRead | null
  /** The best idea of each category present in the input (crypto, forex, commodities, indices, stocks …). */
  topByCategory: Record<string, IdeaRead>
  breadth: { long: number; short: number; neutral: number }
}

/**
 * The market-wide aggregate of GET /v1/ideas/summary over one read per market. Pure and deterministic.
 *
 * "Best" is the conviction order (`compareIdeas`: conviction, then edge, then symbol, then pairIndex),
 * over every idea given, with no worthwhileness filter. bestLong / bestShort: the best long / short idea,
 * null when there is none. topByCategory: the best idea (either direction) of each category that has one;
 * keys are the categories as given, inserted in ascending order. breadth: how many reads are long, short
 * or neutral; `insufficient_history` reads are counted in none of them.
 */
export function summarizeIdeas(
  reads: readonly (IdeaRead | NeutralRead | InsufficientHistory)[],
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
  ideas.sort(compareIdeas)
  const best = new Map<string, IdeaRead>()
  for (const i of ideas) if (!best.has(i.category)) best.set(i.category, i)
  // fromEntries defines own properties, so a category such as `__proto__` stays an ordinary key.
  const topByCategory: Record<string, IdeaRead> = Object.fromEntries(
    [...best.keys()].sort().map((c) => [c, best.get(c) as IdeaRead]),
  )
  return {
    bestLong: ideas.find((i) => i.direction === 'long') ?? null,
    bestShort: ideas.find((i) => i.direction === 'short') ?? null,
    topByCategory,
    breadth,
  }
}
