import type { IdeaBasis, IdeaRead } from '../analytics/ideaFromBars.js'
import { summarizeIdeas } from '../analytics/summarizeIdeas.js'
import { readUniverse } from './getIdeas.js'
import type { MarketData } from './marketData.js'
import { presentIdea } from './presentIdea.js'
import {
  IDEA_MAJORS,
  IDEAS_DISCLAIMER,
  type IdeaMarketReads,
  type IdeasSkipped,
  skippedOf,
} from './readIdeas.js'

export interface IdeasSummaryAnswer {
  basis: IdeaBasis
  bestLong: IdeaRead | null
  bestShort: IdeaRead | null
  topByCategory: Record<string, IdeaRead>
  breadth: { long: number; short: number; neutral: number }
  /** The markets read (canonical tickers). */
  universe: string[]
  skipped: IdeasSkipped
  disclaimer: string
}

/** GET /v1/ideas/summary: `summarizeIdeas` over the default universe (IDEA_MAJORS), ideas in the list form. */
export async function getIdeasSummary(
  market: MarketData,
  basis: IdeaBasis,
  nowMs: number,
): Promise<IdeasSummaryAnswer> {
  return summaryOf(await readUniverse(market, IDEA_MAJORS, basis, nowMs), basis)
}

/** The summary answer of one universe's reads (shared with the one-call bundle). */
export function summaryOf(r: IdeaMarketReads, basis: IdeaBasis): IdeasSummaryAnswer {
  const s = summarizeIdeas(r.reads)
  const list = (i: IdeaRead | null) => (i === null ? null : presentIdea(i, 'list'))
  return {
    basis,
    bestLong: list(s.bestLong),
    bestShort: list(s.bestShort),
    topByCategory: Object.fromEntries(
      Object.entries(s.topByCategory).map(([k, v]) => [k, presentIdea(v, 'list')]),
    ),
    breadth: s.breadth,
    universe: r.reads.map((x) => x.symbol),
    skipped: skippedOf(r),
    disclaimer: IDEAS_DISCLAIMER,
  }
}
