import { z } from 'zod'
import { type IdeaBasis, idea, ideaBasis } from '../analytics/ideaFromBars.js'
import { ideaRanking, rankIdeas, worthwhileness } from '../analytics/rankIdeas.js'
import { UpstreamError } from '../errors.js'
import type { MarketData } from './marketData.js'
import { presentIdea } from './presentIdea.js'
import { queryInt, symbolList } from './queryFields.js'
import {
  IDEA_MAJORS,
  IDEAS_DISCLAIMER,
  IDEAS_DISCLAIMER_TEXT,
  type IdeaMarketReads,
  ideasOf,
  ideasSkipped,
  readIdeasCached,
  skippedOf,
} from './readIdeas.js'
import { UnknownPerpSymbolError } from './unknownPerpSymbolError.js'

/** How many ideas a ranked read lists (GET /v1/ideas, /v1/alpha). */
export const ideasLimit = queryInt(1, 12).default(6).describe('Number of ideas, 1..12, default 6')

/** The query the read takes (the route's query schema). */
export const ideasQuery = z.object({
  symbols: symbolList(20).optional(),
  limit: ideasLimit,
  worthwhileness,
  basis: ideaBasis,
  ranking: ideaRanking,
})

export type IdeasQuery = z.output<typeof ideasQuery>

/** What the read answers (the route's output schema). */
export const ideasOutput = z.object({
  worthwhileness,
  basis: ideaBasis,
  ranking: ideaRanking,
  ideas: z.array(idea),
  skipped: ideasSkipped,
  disclaimer: IDEAS_DISCLAIMER_TEXT,
})

export type Ideas = z.output<typeof ideasOutput>

/**
 * GET /v1/ideas: one idea per market (`readIdeas` → `ideaFromBars`), filtered and ordered by `rankIdeas`,
 * shown in the list form. Every symbol unknown → UnknownPerpSymbolError (400 `symbols`); known symbols
 * but no price or bar for any → UpstreamError (502). Neither is charged.
 */
export async function getIdeas(market: MarketData, q: IdeasQuery, nowMs: number): Promise<Ideas> {
  const r = await readUniverse(market, q.symbols ?? IDEA_MAJORS, q.basis, nowMs)
  const ranked = rankIdeas(ideasOf(r.reads), {
    limit: q.limit,
    worthwhileness: q.worthwhileness,
    ranking: q.ranking,
  })
  return {
    worthwhileness: q.worthwhileness,
    basis: q.basis,
    ranking: q.ranking,
    ideas: ranked.map((i) => presentIdea(i, 'list')),
    skipped: skippedOf(r),
    disclaimer: IDEAS_DISCLAIMER,
  }
}

/** `readIdeas` that refuses an answer with nothing in it: all unknown (400) or nothing readable (502). */
export async function readUniverse(
  market: MarketData,
  symbols: readonly string[],
  basis: IdeaBasis,
  nowMs: number,
): Promise<IdeaMarketReads> {
  const r = await readIdeasCached(market, symbols, basis, nowMs)
  if (r.reads.length === 0 && r.unavailable.length === 0)
    throw new UnknownPerpSymbolError(r.unknown, 'symbols')
  if (r.reads.length === 0)
    throw new UpstreamError('candles', `no price or bars for ${r.unavailable.join(', ')}`)
  return r
}
