import { z } from 'zod'
import { type IdeaBasis, idea, ideaBasis } from '../../analytics/ideaFromBars.js'
import { ideaRanking, MIN_EDGE, selectIdeas, worthwhileness } from '../../analytics/rankIdeas.js'
import { UpstreamError } from '../../errors.js'
import type { MarketData } from '../marketData.js'
import { queryInt, symbolList } from '../queryFields.js'
import { UnknownPerpSymbolError } from '../unknownPerpSymbolError.js'
import { presentIdea } from './presentIdea.js'
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

/** The listing's edge threshold, as every ranked answer states it. */
export const minEdge = z
  .number()
  .describe(
    'The edge threshold `worthwhileness` lists by: strict lists edge ≥ 0.008, loose edge > 0 (so 0.008 or 0); an idea under it is in skipped.filtered as edge_below_threshold',
  )

/** What the read answers (the route's output schema). */
export const ideasOutput = z.object({
  worthwhileness,
  minEdge,
  basis: ideaBasis,
  ranking: ideaRanking,
  ideas: z.array(idea).describe('The listed ideas; every other asked market is in `skipped`, once, with why'),
  skipped: ideasSkipped,
  disclaimer: IDEAS_DISCLAIMER_TEXT,
})

export type Ideas = z.output<typeof ideasOutput>

/**
 * GET /v1/ideas: one idea per market (`readIdeas` → `ideaFromBars`), filtered and ordered by `selectIdeas`,
 * shown in the list form; every idea it leaves out is in `skipped.filtered` with its reason, so every
 * asked market is in `ideas` or `skipped` exactly once. Every symbol unknown → UnknownPerpSymbolError
 * (400 `symbols`); known symbols but no price or bar for any → UpstreamError (502). Neither is charged.
 */
export async function getIdeas(market: MarketData, q: IdeasQuery, nowMs: number): Promise<Ideas> {
  const r = await readUniverse(market, q.symbols ?? IDEA_MAJORS, q.basis, nowMs)
  const selection = selectIdeas(ideasOf(r.reads), {
    limit: q.limit,
    worthwhileness: q.worthwhileness,
    ranking: q.ranking,
  })
  return {
    worthwhileness: q.worthwhileness,
    minEdge: MIN_EDGE[q.worthwhileness],
    basis: q.basis,
    ranking: q.ranking,
    ideas: selection.listed.map((i) => presentIdea(i, 'list')),
    skipped: skippedOf(r, selection.skipped),
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
