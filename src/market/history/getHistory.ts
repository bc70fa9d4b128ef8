import type { Address, PublicClient } from 'viem'
import { z } from 'zod'
import { address } from '../../chain/fields.js'
import { pairRoundTrips, roundTrip } from '../arbitrage/pairRoundTrips.js'
import type { MarketData } from '../marketData.js'
import { sourceStatus } from '../sourceStatus.js'
import type { GtradeHistoryRecord } from '../upstreams/gtradeHistory.js'
import { walletReadCache } from '../walletReadCache.js'

/** Older backend pages fetched at most, only to find the opens of this page's closes. */
export const OPEN_LOOKUP_PAGES = 5
const LOOKUP_PAGE_SIZE = 100

/** What the read answers (the route's output schema). */
export const historyOutput = z.object({
  address,
  trades: z.array(roundTrip),
  nextCursor: z.string().nullable().describe('cursor of the next (older) page; null at the end'),
  sources: z.object({ history: sourceStatus }),
})

export type History = Omit<z.output<typeof historyOutput>, 'address'>

/**
 * One page of closed gTrade round trips, newest first. `limit` counts backend events (opens, closes,
 * updates), so a page may hold fewer round trips than `limit`, even none while `nextCursor` is not null.
 * A round trip is listed on the page of its close; when its open is on an older page, up to
 * OPEN_LOOKUP_PAGES further pages of 100 events are read to find it (not returned; nextCursor stays this
 * page's). An open still not found leaves openPrice, openTx and openedAt null. The history backend is the
 * only source: its fault is an UpstreamError (502, nothing charged).
 */
export function getHistory(
  chain: PublicClient,
  market: MarketData,
  owner: Address,
  page: { cursor?: string | undefined; limit: number },
): Promise<History> {
  return cache(chain, `${owner}:${page.limit}:${page.cursor ?? ''}`, () => readHistory(market, owner, page))
}

const cache = walletReadCache<History>()

async function readHistory(
  market: MarketData,
  owner: Address,
  page: { cursor?: string | undefined; limit: number },
): Promise<History> {
  const first = await market.gtradeHistory.page(owner, page.cursor, page.limit)
  const lookup: GtradeHistoryRecord[] = []
  let trades = pairRoundTrips(first.records)
  let next = first.nextCursor
  for (let i = 0; i < OPEN_LOOKUP_PAGES && next !== null && trades.some((t) => t.openTx === null); i++) {
    const older = await market.gtradeHistory.page(owner, next, LOOKUP_PAGE_SIZE)
    lookup.push(...older.records)
    next = older.nextCursor
    trades = pairRoundTrips(first.records, lookup)
  }
  return { trades, nextCursor: first.nextCursor, sources: { history: { ok: true } } }
}
