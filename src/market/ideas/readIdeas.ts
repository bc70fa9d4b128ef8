import { z } from 'zod'
import type { Bar } from '../../analytics/bar.js'
import {
  IDEA_BASES,
  type IdeaBasis,
  type IdeaInsufficientHistory,
  type IdeaRead,
  ideaFromBars,
  type NeutralRead,
} from '../../analytics/ideaFromBars.js'
import { type SkippedIdea, skippedIdea } from '../../analytics/rankIdeas.js'
import { symbol } from '../../chain/fields.js'
import { prose } from '../../prose.js'
import { createTtlCache, type TtlCache } from '../../ttlCache.js'
import { getRecentBars } from '../candles/getCandles.js'
import { findPythFeed } from '../findPythFeed.js'
import type { MarketData } from '../marketData.js'
import { round } from '../numbers.js'
import { canonicalSymbol } from '../prices/getPrices.js'
import { getRiskPairs } from '../risk/getRiskPairs.js'

/**
 * The default universe of the ideas reads ("the top listed majors"): the largest markets of each of the
 * perp venue's five categories, 20 in all (the per-call cap). Symbols the venue does not list are skipped.
 */
export const IDEA_MAJORS = [
  'BTC',
  'ETH',
  'SOL',
  'XRP',
  'BNB',
  'DOGE',
  'ADA',
  'LINK',
  'AVAX',
  'LTC',
  'EUR',
  'GBP',
  'AUD',
  'XAU',
  'XAG',
  'WTI',
  'SPY',
  'QQQ',
  'NVDA',
  'TSLA',
] as const

/** The basis the ideas reads use unless `basis` says otherwise: about a year of daily candles. */
export const DEFAULT_IDEA_BASIS: IdeaBasis = '1d-1y'

export type IdeaOutcome = IdeaRead | NeutralRead | IdeaInsufficientHistory

export interface IdeaMarketReads {
  /** One outcome per readable symbol, in request order. */
  reads: IdeaOutcome[]
  /** Requested tickers (canonical case) with no perp pair SYM/USD that has an oracle feed. */
  unknown: string[]
  /** The bars each read was given, by symbol (the pair comparison reuses them). */
  bars: Map<string, Bar[]>
  /** Listed, but the oracle has no price for them right now, or the candle source no usable bar. */
  unavailable: string[]
}

/** The reads of one universe are the oracle's latest prices (cached 2 s upstream): kept 1 s here. */
export const IDEA_READS_TTL_MS = 1000

const caches = new WeakMap<MarketData, TtlCache<IdeaMarketReads>>()

/**
 * `readIdeas`, shared for IDEA_READS_TTL_MS per service (its MarketData) by the exact symbol list, basis
 * and bar window: the ideas, summary, single-asset and bundle reads of one universe within a second read
 * it once (the oracle price is cached as long upstream, so nothing fresher is missed).
 */
export function readIdeasCached(
  market: MarketData,
  symbols: readonly string[],
  basis: IdeaBasis,
  nowMs: number,
): Promise<IdeaMarketReads> {
  let cache = caches.get(market)
  if (cache === undefined) {
    cache = createTtlCache<IdeaMarketReads>(IDEA_READS_TTL_MS)
    caches.set(market, cache)
  }
  const { barSec } = IDEA_BASES[basis]
  const windowEnd = Math.floor(nowMs / 1000 / barSec) * barSec
  return cache.get(`${symbols.map(canonicalSymbol).join(',')}|${basis}|${windowEnd}`, () =>
    readIdeas(market, symbols, basis, nowMs),
  )
}

/**
 * One `ideaFromBars` outcome per symbol. The market: the perp venue's pair SYM/USD (`getRiskPairs`: index,
 * group as category, max leverage) priced at its oracle feed's latest price (the entry, as
 * POST /v1/tx/risk/open takes markPrice). The bars: the basis's window of whole bars from the candle path
 * (`getRecentBars`: the exchange product SYM-USD when listed, else the oracle history). Everything is read
 * concurrently; the upstream adapters' caches make a repeat within a second free.
 */
export async function readIdeas(
  market: MarketData,
  symbols: readonly string[],
  basis: IdeaBasis,
  nowMs: number,
): Promise<IdeaMarketReads> {
  const [pairs, feeds] = await Promise.all([getRiskPairs(market), market.pyth.feeds()])
  const wanted = [...new Set(symbols.map(canonicalSymbol))]
  const listed = wanted.flatMap((symbol) => {
    const pair = pairs.find((p) => p.symbol === `${symbol}/USD`)
    const feed = findPythFeed(feeds, symbol, 'USD')
    return pair === undefined || feed === undefined ? [] : [{ symbol, pair, feed }]
  })
  const unknown = wanted.filter((s) => !listed.some((l) => l.symbol === s))
  if (listed.length === 0) return { reads: [], unknown, unavailable: [], bars: new Map() }

  const { barSec, windowSec } = IDEA_BASES[basis]
  const [prices, candles] = await Promise.all([
    market.pyth.latest(listed.map((l) => l.feed.id)),
    Promise.all(
      listed.map((l) =>
        getRecentBars(
          market,
          { sym: l.symbol, quote: 'USD', granularitySec: barSec, bars: windowSec / barSec },
          nowMs,
        ),
      ),
    ),
  ])
  const reads: IdeaOutcome[] = []
  const unavailable: string[] = []
  const barsBySymbol = new Map<string, Bar[]>()
  listed.forEach(({ symbol, pair, feed }, i) => {
    const mark = prices.get(feed.id)?.price
    const rows = candles[i]?.bars ?? []
    if (mark === undefined || !(mark > 0) || rows.length === 0) {
      unavailable.push(symbol)
      return
    }
    const bars: Bar[] = rows.map((b) => ({ ...b, t: b.time }))
    barsBySymbol.set(symbol, bars)
    const idea = {
      symbol,
      pairIndex: pair.pairIndex,
      category: pair.group,
      maxLeverage: pair.maxLeverage,
      mark,
    }
    try {
      reads.push(ideaFromBars(bars, idea, basis))
    } catch (e) {
      // A bar with a price that is not positive is a fault of the source, not of the caller: no read.
      if (!(e instanceof RangeError)) throw e
      unavailable.push(symbol)
    }
  })
  return { reads, unknown, unavailable, bars: barsBySymbol }
}

/** The ideas among the outcomes (neither neutral nor short of history). */
export function ideasOf(reads: readonly IdeaOutcome[]): IdeaRead[] {
  return reads.filter((r): r is IdeaRead => !('status' in r))
}

/**
 * Markets an ideas answer left out, and why: never a made-up idea. With the answer's ideas (or, in the
 * summary, its `eligible` markets) every asked market is in exactly one place.
 */
export const ideasSkipped = z.object({
  neutral: z
    .array(z.object({ symbol, reason: z.enum(['no_trend', 'stop_too_wide']) }))
    .describe('No direction (no_trend), or no allowed leverage survives the stop (stop_too_wide)'),
  insufficientHistory: z
    .array(z.object({ symbol, needed: z.number().int(), got: z.number().int() }))
    .describe('Fewer bars in the basis window than the rule’s warm-up (25)'),
  unknown: z.array(z.string()).describe('No perp pair SYM/USD with an oracle feed'),
  unavailable: z.array(z.string()).describe('Listed, but no oracle price or no usable bar right now'),
  filtered: z.array(skippedIdea).describe(
    prose`
      The rule found an idea (a direction, stop and leverage) but this answer does not list it, each
      with its reason: edge_below_threshold (with the idea’s edge and the threshold),
      category_direction_taken (strict’s one idea per category and direction; keptBy) or beyond_limit
      (rank). GET /v1/ideas: first those that passed the threshold, in ranking order, then those below
      it, highest edge first; the summary filters on the edge alone, so only edge_below_threshold`,
  ),
})

/** Why the reads left markets out, as every ideas answer reports it. */
export type IdeasSkipped = z.output<typeof ideasSkipped>

/** The reads' skips, plus the ideas the answer's listing left out (`filtered`, edges to 6 decimals). */
export function skippedOf(r: IdeaMarketReads, filtered: readonly SkippedIdea[]): IdeasSkipped {
  const neutral: IdeasSkipped['neutral'] = []
  const insufficientHistory: IdeasSkipped['insufficientHistory'] = []
  for (const read of r.reads) {
    if (!('status' in read)) continue
    if (read.status === 'neutral') neutral.push({ symbol: read.symbol, reason: read.reason })
    else insufficientHistory.push({ symbol: read.symbol, needed: read.needed, got: read.got })
  }
  return {
    neutral,
    insufficientHistory,
    unknown: r.unknown,
    unavailable: r.unavailable,
    filtered: filtered.map((f) => ({ ...f, edge: f.edge === null ? null : round(f.edge, 6) })),
  }
}

export const IDEAS_DISCLAIMER = 'Indicative, not advice'

export const IDEAS_DISCLAIMER_TEXT = z.string().describe('Indicative, not advice')
