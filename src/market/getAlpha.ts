import type { PublicClient } from 'viem'
import { z } from 'zod'
import { idea } from '../analytics/ideaFromBars.js'
import { rankIdeas } from '../analytics/rankIdeas.js'
import { symbol, wallet } from '../chain/fields.js'
import { arbitrageTarget } from './arbitrageTokens.js'
import { arbitrageOutput, budget, getArbitrage } from './getArbitrage.js'
import { ideasLimit, readUniverse } from './getIdeas.js'
import { summaryOf, summaryOutput } from './getIdeasSummary.js'
import { getSignals, UnknownSignalSymbolError } from './getSignals.js'
import type { MarketData } from './marketData.js'
import { presentIdea } from './presentIdea.js'
import { slippageBpsQuery, symbolList } from './queryFields.js'
import {
  DEFAULT_IDEA_BASIS,
  IDEA_MAJORS,
  IDEAS_DISCLAIMER,
  IDEAS_DISCLAIMER_TEXT,
  ideasOf,
} from './readIdeas.js'

/** Symbols the bundle's signals section reads: the first of the ideas' symbols. */
export const ALPHA_SIGNAL_SYMBOLS = 10

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

/** What the read answers (the route's output schema). */
export const alphaOutput = z.object({
  arbitrage: arbitrageOutput.nullable(),
  arbitrageSkipped: z.string().nullable().describe('Why arbitrage is null (no taker); null when read'),
  ideas: z.array(idea),
  signals: z.array(
    z.object({
      symbol,
      bias: z.enum(['long', 'short', 'neutral']).nullable(),
      conviction: z.number().nullable(),
    }),
  ),
  summary: summaryOutput,
  disclaimer: IDEAS_DISCLAIMER_TEXT,
})

export type Alpha = z.output<typeof alphaOutput>

/**
 * GET /v1/alpha: the ideas reads of `symbols` (default IDEA_MAJORS) read once and given twice, ranked
 * (strict, edge-rate, `limit`) and summarized; `/v1/signals` for the first ALPHA_SIGNAL_SYMBOLS symbols;
 * `/v1/arbitrage` when `taker` is given. The three run concurrently. All symbols unknown to the perp venue
 * is the ideas' 400; any section's upstream failing is a 502 (the bundle is all or nothing, uncharged).
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
  const ranked = rankIdeas(ideasOf(reads.reads), {
    limit: q.limit,
    worthwhileness: 'strict',
    ranking: 'edge-rate',
  })
  return {
    arbitrage,
    arbitrageSkipped: taker === undefined ? 'taker omitted: pass taker to read arbitrage routes' : null,
    ideas: ranked.map((i) => presentIdea(i, 'list')),
    signals: signals.signals.map((s) => ({ symbol: s.symbol, bias: s.bias, conviction: s.conviction })),
    summary: summaryOf(reads, DEFAULT_IDEA_BASIS),
    disclaimer: IDEAS_DISCLAIMER,
  }
}
