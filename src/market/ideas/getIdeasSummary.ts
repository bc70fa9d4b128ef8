import { z } from 'zod'
import type { IdeaBasis, IdeaRead } from '../../analytics/ideaFromBars.js'
import { idea, ideaBasis } from '../../analytics/ideaFromBars.js'
import { MIN_EDGE, type Worthwhileness, worthwhileness } from '../../analytics/rankIdeas.js'
import { summarizeIdeas } from '../../analytics/summarizeIdeas.js'
import { symbol } from '../../chain/fields.js'
import type { MarketData } from '../marketData.js'
import { minEdge, readUniverse } from './getIdeas.js'
import { presentIdea } from './presentIdea.js'
import {
  IDEA_MAJORS,
  IDEAS_DISCLAIMER,
  IDEAS_DISCLAIMER_TEXT,
  type IdeaMarketReads,
  ideasSkipped,
  skippedOf,
} from './readIdeas.js'

/** The query the read takes (the route's query schema). */
export const summaryQuery = z.object({
  basis: ideaBasis,
  worthwhileness: worthwhileness.describe(
    'The edge threshold the picks must pass, as GET /v1/ideas lists: strict (default) edge ≥ 0.008, loose edge > 0',
  ),
})

/** What the read answers (GET /v1/ideas/summary, also part of GET /v1/alpha). */
export const summaryOutput = z.object({
  basis: ideaBasis,
  worthwhileness,
  minEdge,
  bestLong: idea
    .nullable()
    .describe('The best eligible long in the conviction order; null when no long passes the threshold'),
  bestShort: idea
    .nullable()
    .describe('The best eligible short in the conviction order; null when no short passes the threshold'),
  topByCategory: z
    .record(z.string(), idea)
    .describe('The best eligible idea of each category that has one (conviction order)'),
  breadth: z
    .object({ long: z.number().int(), short: z.number().int(), neutral: z.number().int() })
    .describe(
      'How many markets read long, short or neutral, whatever their edge (the rule’s direction, market-wide; so it may count markets that are not eligible)',
    ),
  universe: z.array(symbol).describe('The markets read'),
  eligible: z
    .array(symbol)
    .describe(
      'The markets whose idea passes the threshold, in the conviction order: bestLong, bestShort and topByCategory are drawn from these; every other asked market is in `skipped`, once',
    ),
  skipped: ideasSkipped,
  disclaimer: IDEAS_DISCLAIMER_TEXT,
})

export type IdeasSummaryAnswer = z.output<typeof summaryOutput>

/** GET /v1/ideas/summary: `summarizeIdeas` over the default universe (IDEA_MAJORS), ideas in the list form. */
export async function getIdeasSummary(
  market: MarketData,
  q: z.output<typeof summaryQuery>,
  nowMs: number,
): Promise<IdeasSummaryAnswer> {
  return summaryOf(await readUniverse(market, IDEA_MAJORS, q.basis, nowMs), q)
}

/** The summary answer of one universe's reads (shared with the one-call bundle). */
export function summaryOf(
  r: IdeaMarketReads,
  q: { basis: IdeaBasis; worthwhileness: Worthwhileness },
): IdeasSummaryAnswer {
  const s = summarizeIdeas(r.reads, { worthwhileness: q.worthwhileness })
  const list = (i: IdeaRead | null) => (i === null ? null : presentIdea(i, 'list'))
  return {
    basis: q.basis,
    worthwhileness: q.worthwhileness,
    minEdge: MIN_EDGE[q.worthwhileness],
    bestLong: list(s.bestLong),
    bestShort: list(s.bestShort),
    topByCategory: Object.fromEntries(
      Object.entries(s.topByCategory).map(([k, v]) => [k, presentIdea(v, 'list')]),
    ),
    breadth: s.breadth,
    universe: r.reads.map((x) => x.symbol),
    eligible: s.eligible.map((i) => i.symbol),
    skipped: skippedOf(r, s.belowThreshold),
    disclaimer: IDEAS_DISCLAIMER,
  }
}
