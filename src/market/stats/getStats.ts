import type { Address, PublicClient } from 'viem'
import { z } from 'zod'
import { computeStats } from '../../analytics/computeStats.js'
import { address } from '../../chain/fields.js'
import { UpstreamError } from '../../errors.js'
import { pairRoundTrips } from '../arbitrage/pairRoundTrips.js'
import type { MarketData } from '../marketData.js'
import { sourceStatus } from '../sourceStatus.js'
import type { GtradeHistoryRecord } from '../upstreams/gtradeHistory.js'
import { walletReadCache } from '../walletReadCache.js'

/** History pages of 100 events read at most: 5,000 events. */
export const STATS_MAX_PAGES = 50
const PAGE_SIZE = 100

/** What the read answers (the route's output schema). */
export const statsOutput = z.object({
  address,
  trades: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  winRate: z.number().nullable().describe('wins / trades; null with no trades'),
  netUsd: z.number(),
  grossProfit: z.number(),
  grossLoss: z.number().describe('Positive'),
  profitFactor: z.number().nullable().describe('null with no losses (never Infinity)'),
  expectancyR: z.number().nullable().describe('Mean R multiple; null with no trades'),
  avgWin: z.number().nullable().describe('null with no wins'),
  avgLoss: z.number().nullable().describe('Positive; null with no losses'),
  bestTrade: z.number().nullable().describe('null with no trades'),
  worstTrade: z.number().nullable().describe('null with no trades'),
  truncated: z.boolean().describe('More history than 5,000 events: the stats cover the newest'),
  sources: z.object({ history: sourceStatus }),
})

export type Stats = Omit<z.output<typeof statsOutput>, 'address'>

/**
 * Trading statistics over every closed gTrade round trip of the owner: all history pages (at most
 * STATS_MAX_PAGES of 100 events), paired into round trips, then computeStats. Round trips whose pnl the
 * backend did not send are left out. The history backend is the only source: its fault is a 502.
 */
export function getStats(chain: PublicClient, market: MarketData, owner: Address): Promise<Stats> {
  return cache(chain, owner, () => readStats(market, owner))
}

const cache = walletReadCache<Stats>()

async function readStats(market: MarketData, owner: Address): Promise<Stats> {
  const records: GtradeHistoryRecord[] = []
  let cursor: string | undefined
  let pages = 0
  let more = true
  // A backend that hands back a cursor it already gave would serve the same events again: counted
  // twice (up to STATS_MAX_PAGES times), every figure would be multiplied. A broken pager is a fault.
  const seen = new Set<string>()
  // Overlapping pages (the same event under two cursors) would count a trade twice: each event is kept
  // once, keyed by its transaction, action and trade index.
  const events = new Set<string>()
  while (more && pages < STATS_MAX_PAGES) {
    const page = await market.gtradeHistory.page(owner, cursor, PAGE_SIZE)
    for (const r of page.records) {
      const key = `${r.tx}:${r.action}:${r.tradeIndex}`
      if (events.has(key)) continue
      events.add(key)
      records.push(r)
    }
    pages++
    more = page.nextCursor !== null
    cursor = page.nextCursor ?? undefined
    if (cursor !== undefined) {
      if (seen.has(cursor)) throw new UpstreamError('gTrade history', 'the backend repeated a page cursor')
      seen.add(cursor)
    }
  }
  const closed = pairRoundTrips(records).flatMap((t) =>
    t.pnlUsd === null
      ? []
      : [
          {
            pnlUsd: t.pnlUsd,
            collateralUsd: t.collateralUsdc,
            leverage: t.leverage,
            openPrice: t.openPrice,
            sl: t.sl,
          },
        ],
  )
  return { ...computeStats(closed), truncated: more, sources: { history: { ok: true } } }
}
