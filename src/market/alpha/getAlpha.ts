import type { PublicClient } from 'viem'
import { z } from 'zod'
import { idea } from '../../analytics/ideaFromBars.js'
import { type SkippedIdea, selectIdeas, skipReason, type Worthwhileness } from '../../analytics/rankIdeas.js'
import { symbol, wallet } from '../../chain/fields.js'
import { prose } from '../../prose.js'
import { arbitrageTarget } from '../arbitrage/arbitrageTokens.js'
import { arbitrageOutput, budget, getArbitrage } from '../arbitrage/getArbitrage.js'
import { ideasLimit, readUniverse } from '../ideas/getIdeas.js'
import { summaryOf, summaryOutput } from '../ideas/getIdeasSummary.js'
import { presentIdea } from '../ideas/presentIdea.js'
import {
  DEFAULT_IDEA_BASIS,
  IDEA_MAJORS,
  IDEAS_DISCLAIMER,
  IDEAS_DISCLAIMER_TEXT,
  ideasOf,
  ideasSkipped,
  skippedOf,
} from '../ideas/readIdeas.js'
import type { MarketData } from '../marketData.js'
import { slippageBpsQuery, symbolList } from '../queryFields.js'
import { getSignals, UnknownSignalSymbolError } from '../signals/getSignals.js'

/** Symbols the bundle's signals section reads: the first of the ideas' symbols. */
export const ALPHA_SIGNAL_SYMBOLS = 10

/** The bundle lists its ideas, and draws its summary's picks, at this threshold. */
const ALPHA_WORTHWHILENESS: Worthwhileness = 'strict'

/** The query the read takes (the route's query schema). */
export const alphaQuery = z.object({
  target: arbitrageTarget,
  budget,
  taker: wallet.optional(),
  symbols: symbolList(20).optional(),
  limit: ideasLimit,
  slippageBps: slippageBpsQuery(10_000),
})

export type AlphaQuery = z.output<typeof alphaQuery>

/** The bundle's summary: GET /v1/ideas/summary's, plus how its picks stand against the bundle's `ideas`. */
export const alphaSummary = summaryOutput.extend({
  notInIdeas: z.array(z.object({ symbol, reason: skipReason })).describe(
    prose`
      The summary’s picks (bestLong, bestShort, topByCategory) that the bundle’s \`ideas\` does not
      list, once each, with the reason of their entry in the bundle’s \`skipped.filtered\`:
      category_direction_taken (the summary picks in the conviction order, \`ideas\` keeps the first of
      each category and direction in the edge-rate order) or beyond_limit. Never edge_below_threshold:
      both use the strict threshold. Empty when every pick is listed`,
  ),
})

/** What the read answers (the route's output schema). */
export const alphaOutput = z.object({
  arbitrage: arbitrageOutput.nullable(),
  arbitrageSkipped: z.string().nullable().describe('Why arbitrage is null (no taker); null when read'),
  ideas: z
    .array(idea)
    .describe(
      'GET /v1/ideas’s ideas for the query; every other asked market is in `skipped`, once, with why',
    ),
  skipped: ideasSkipped.describe(
    'The ideas section’s skips, as GET /v1/ideas answers them: with `ideas`, every asked market exactly once (summary.skipped is the summary’s own, on the edge alone)',
  ),
  signals: z.array(
    z.object({
      symbol,
      bias: z.enum(['long', 'short', 'neutral']).nullable(),
      conviction: z.number().nullable(),
    }),
  ),
  summary: alphaSummary,
  disclaimer: IDEAS_DISCLAIMER_TEXT,
})

export type Alpha = z.output<typeof alphaOutput>

/**
 * GET /v1/alpha: the ideas reads of `symbols` (default IDEA_MAJORS) read once and given twice, ranked
 * (strict, edge-rate, `limit`, with `skipped` as GET /v1/ideas has it) and summarized at the same
 * threshold (the picks the listing left out named in `summary.notInIdeas`); `/v1/signals` for the first
 * ALPHA_SIGNAL_SYMBOLS symbols; `/v1/arbitrage` when `taker` is given. The three run concurrently. All
 * symbols unknown to the perp venue is the ideas' 400; any section's upstream failing is a 502 (the
 * bundle is all or nothing, uncharged).
 */
export async function getAlpha(
  chain: PublicClient,
  market: MarketData,
  q: AlphaQuery,
  nowMs: number,
): Promise<Alpha> {
  const symbols = q.symbols ?? IDEA_MAJORS
  const { taker } = q
  const [reads, signals, arbitrage] = await Promise.all([
    readUniverse(market, symbols, DEFAULT_IDEA_BASIS, nowMs),
    getSignals(market, { symbols: symbols.slice(0, ALPHA_SIGNAL_SYMBOLS), quote: 'USD' }, nowMs).catch(
      (e: unknown) => {
        // Signals know every candle source; none of the first ten having one leaves that section empty.
        if (e instanceof UnknownSignalSymbolError) return { signals: [], unknown: [] }
        throw e
      },
    ),
    taker === undefined
      ? null
      : getArbitrage(chain, market, {
          target: q.target,
          budget: q.budget,
          taker,
          slippageBps: q.slippageBps,
        }),
  ])
  const selection = selectIdeas(ideasOf(reads.reads), {
    limit: q.limit,
    worthwhileness: ALPHA_WORTHWHILENESS,
    ranking: 'edge-rate',
  })
  const summary = summaryOf(reads, { basis: DEFAULT_IDEA_BASIS, worthwhileness: ALPHA_WORTHWHILENESS })
  return {
    arbitrage,
    arbitrageSkipped: taker === undefined ? 'taker omitted: pass taker to read arbitrage routes' : null,
    ideas: selection.listed.map((i) => presentIdea(i, 'list')),
    skipped: skippedOf(reads, selection.skipped),
    signals: signals.signals.map((s) => ({ symbol: s.symbol, bias: s.bias, conviction: s.conviction })),
    summary: { ...summary, notInIdeas: notInIdeas(summary, selection.skipped) },
    disclaimer: IDEAS_DISCLAIMER,
  }
}

/** The summary's picks that the bundle's listing left out, in the order bestLong, bestShort, categories. */
function notInIdeas(
  summary: {
    bestLong: { symbol: string } | null
    bestShort: { symbol: string } | null
    topByCategory: Record<string, { symbol: string }>
  },
  skipped: readonly SkippedIdea[],
): { symbol: string; reason: SkippedIdea['reason'] }[] {
  const picks = [summary.bestLong, summary.bestShort, ...Object.values(summary.topByCategory)]
  const out = new Map<string, SkippedIdea['reason']>()
  for (const p of picks) {
    const left = p === null ? undefined : skipped.find((s) => s.symbol === p.symbol)
    if (left !== undefined) out.set(left.symbol, left.reason)
  }
  return [...out].map(([symbol, reason]) => ({ symbol, reason }))
}
