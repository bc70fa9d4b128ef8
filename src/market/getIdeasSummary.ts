import { z } from 'zod'
import type { IdeaBasis, IdeaRead } from '../analytics/ideaFromBars.js'
import { idea, ideaBasis } from '../analytics/ideaFromBars.js'
import { summarizeIdeas } from '../analytics/summarizeIdeas.js'
import { symbol } from '../chain/fields.js'
import { readUniverse } from './getIdeas.js'
import type { MarketData } from './marketData.js'
import { presentIdea } from './presentIdea.js'
import {
  IDEA_MAJORS,
  IDEAS_DISCLAIMER,
  IDEAS_DISCLAIMER_TEXT,
  type IdeaMarketReads,
  ideasSkipped,
  skippedOf,
} from './readIdeas.js'

/** What the read answers (GET /v1/ideas/summary, also part of GET /v1/alpha). */
export const summaryOutput = z.object({
  basis: ideaBasis,
  bestLong: idea.nullable(),
  bestShort: idea.nullable(),
  topByCategory: z.record(z.string(), idea),
  breadth: z.object({ long: z.number().int(), short: z.number().int(), neutral: z.number().int() }),
  universe: z.array(symbol).describe('The markets read'),
  skipped: ideasSkipped,
  disclaimer: IDEAS_DISCLAIMER_TEXT,
})

export type IdeasSummaryAnswer = z.output<typeof summaryOutput>

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
