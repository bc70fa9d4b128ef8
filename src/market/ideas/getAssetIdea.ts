import { z } from 'zod'
import { type IdeaBasis, idea, ideaBasis } from '../../analytics/ideaFromBars.js'
import { pickAlternatives } from '../../analytics/pickAlternatives.js'
import { MIN_EDGE, meetsThreshold } from '../../analytics/rankIdeas.js'
import { symbol } from '../../chain/fields.js'
import { UpstreamError } from '../../errors.js'
import { prose } from '../../prose.js'
import type { MarketData } from '../marketData.js'
import { canonicalSymbol } from '../prices/getPrices.js'
import { UnknownPerpSymbolError } from '../unknownPerpSymbolError.js'
import { presentIdea } from './presentIdea.js'
import { IDEA_MAJORS, IDEAS_DISCLAIMER, type IdeaOutcome, ideasOf, readIdeasCached } from './readIdeas.js'

/** Whether an idea's edge passes each listing's threshold, with the thresholds. */
export const worthwhile = z
  .object({
    strict: z.boolean().describe('edge ≥ minEdge.strict (0.008)'),
    loose: z.boolean().describe('edge > minEdge.loose (0)'),
    minEdge: z.object({ strict: z.number(), loose: z.number() }),
  })
  .nullable()
  .describe(
    prose`
      Whether the idea’s edge passes each listing’s threshold: strict is the default of GET /v1/ideas
      and /v1/ideas/summary and the one GET /v1/alpha uses, so strict false means those answers list it
      in skipped.filtered as edge_below_threshold, never as an idea or a pick (loose false: no listing
      names it). The edge alone: strict’s one idea per category and direction and the limit are the
      list’s. null when status is not ok`,
  )

/** One market's read in the single-asset form: the idea with target, liquidation and edge, or why none. */
export const assetRead = z.object({
  symbol,
  status: z.enum(['ok', 'neutral', 'insufficient_history']),
  reason: z.enum(['no_trend', 'stop_too_wide']).nullable().describe('Why neutral; null otherwise'),
  needed: z.number().int().nullable().describe('insufficient_history: the warm-up (25); null otherwise'),
  got: z.number().int().nullable().describe('insufficient_history: bars in the window; null otherwise'),
  idea: idea.nullable().describe('With target, liquidation and edge; null unless status is ok'),
  worthwhile,
})

export type AssetRead = z.output<typeof assetRead>

/** What the read answers (the route's output schema). */
export const assetIdeaOutput = assetRead.extend({
  basis: ideaBasis,
  alternatives: z.array(idea),
  hedge: idea.nullable(),
  disclaimer: z.string().describe('Indicative, not advice'),
})

export type AssetIdea = z.output<typeof assetIdeaOutput>

/**
 * GET /v1/ideas/asset/{sym}: `sym`'s read in the single-asset form, with better alternatives and a hedge
 * (`pickAlternatives`) from the default universe (IDEA_MAJORS, plus `sym` when it is not one of them), all read at once. An unlisted
 * `sym` is UnknownPerpSymbolError (404 naming `sym`); a listed one with no price or bar an UpstreamError.
 */
export async function getAssetIdea(
  market: MarketData,
  sym: string,
  basis: IdeaBasis,
  nowMs: number,
): Promise<AssetIdea> {
  const symbol = canonicalSymbol(sym)
  // A major reads the default universe itself, so it shares the cached reads of /v1/ideas and the summary.
  const universe = (IDEA_MAJORS as readonly string[]).includes(symbol)
    ? IDEA_MAJORS
    : [...IDEA_MAJORS, symbol]
  const r = await readIdeasCached(market, universe, basis, nowMs)
  if (r.unknown.includes(symbol)) throw new UnknownPerpSymbolError([symbol], 'sym')
  const own = r.reads.find((x) => x.symbol === symbol)
  if (own === undefined) throw new UpstreamError('candles', `no price or bars for ${symbol}`)
  const read = assetReadOf(own)
  const picked = pickAlternatives(
    { symbol, pairIndex: read.idea?.pairIndex ?? -1, idea: 'status' in own ? null : own },
    ideasOf(r.reads),
  )
  return {
    ...read,
    basis,
    alternatives: picked.alternatives.map((i) => presentIdea(i, 'asset')),
    hedge: picked.hedge === null ? null : presentIdea(picked.hedge, 'asset'),
    disclaimer: IDEAS_DISCLAIMER,
  }
}

/** An outcome of `ideaFromBars` in the single-asset form. */
export function assetReadOf(o: IdeaOutcome): AssetRead {
  const base = { symbol: o.symbol, reason: null, needed: null, got: null, idea: null, worthwhile: null }
  if (!('status' in o)) {
    const passes = { strict: meetsThreshold(o, 'strict'), loose: meetsThreshold(o, 'loose') }
    return {
      ...base,
      status: 'ok',
      idea: presentIdea(o, 'asset'),
      worthwhile: { ...passes, minEdge: MIN_EDGE },
    }
  }
  if (o.status === 'neutral') return { ...base, status: 'neutral', reason: o.reason }
  return { ...base, status: 'insufficient_history', needed: o.needed, got: o.got }
}
