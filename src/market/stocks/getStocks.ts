import type { PublicClient } from 'viem'
import { z } from 'zod'
import { cachePerClient } from '../../chain/cachePerClient.js'
import { address } from '../../chain/fields.js'
import { STOCK_FEED_HEARTBEAT_SEC, STOCK_TICKERS } from '../../chain/tokenizedStocks.js'
import { multicallAll, type StockState, stockStateCalls } from './readStocks.js'

/** Why a ticker is not tradable, first failing check first. */
export const NOT_TRADABLE_REASONS = [
  'not_minted',
  'not_registered',
  'paused',
  'no_pool',
  'feed_unavailable',
  'feed_stale',
] as const
export type NotTradableReason = (typeof NOT_TRADABLE_REASONS)[number]

/** What the read answers (the route's output schema). */
export const stocksOutput = z.object({
  stocks: z.array(
    z.object({
      ticker: z.string(),
      token: address,
      feed: address,
      usd: z
        .number()
        .nullable()
        .describe('Feed price of one token, USD; null when the feed has no usable answer'),
      feedAgeSec: z.number().int().nullable(),
      multiplier: z.number().nullable().describe('Shares per token (multiplier() / 1e18)'),
      minted: z.boolean(),
      pool: address.nullable().describe('Deepest Uniswap v3 stock/USDC pool; null when none has liquidity'),
      tradable: z.boolean(),
      notTradableReason: z
        .enum(NOT_TRADABLE_REASONS)
        .nullable()
        .describe('First failing check when not tradable; null when tradable'),
    }),
  ),
})

export type StockListing = z.output<typeof stocksOutput>['stocks'][number]

/** The chain state behind the catalog is re-read at most every 5 s (feed ages stay exact: against now). */
const STOCK_STATE_TTL_MS = 5_000
const stateCache = cachePerClient<StockState[]>(STOCK_STATE_TTL_MS)

/**
 * The 13 registered tickers, read from the chain in one multicall (cached STOCK_STATE_TTL_MS): each feed's latestRoundData and
 * decimals, each token's multiplier and supply, the registry's paused flag, and every fee tier's pool.
 * Tradable = minted, registered, not paused, a USDC pool with liquidity, and a feed that answered within
 * its 24 h heartbeat (ages are against `nowMs`).
 */
export async function getStocks(chain: PublicClient, nowMs: number): Promise<StockListing[]> {
  const states = await stateCache(chain).get('all', async () => {
    const reads = STOCK_TICKERS.map((ticker) => stockStateCalls(ticker))
    const results = await multicallAll(
      chain,
      reads.flatMap((r) => r.calls),
    )
    let offset = 0
    return reads.map((r) => {
      const state = r.decode(results.slice(offset, offset + r.calls.length))
      offset += r.calls.length
      return state
    })
  })
  const nowSec = Math.floor(nowMs / 1000)
  return states.map((state) => {
    const feedAgeSec = state.feedUpdatedAt === null ? null : Math.max(0, nowSec - state.feedUpdatedAt)
    const notTradableReason = reasonNotTradable(state, feedAgeSec)
    return {
      ticker: state.ticker,
      token: state.token,
      feed: state.feed,
      usd: state.feedUsd,
      feedAgeSec,
      multiplier: state.multiplier,
      minted: state.minted,
      pool: state.pools[0]?.address ?? null,
      tradable: notTradableReason === null,
      notTradableReason,
    }
  })
}

function reasonNotTradable(s: StockState, feedAgeSec: number | null): NotTradableReason | null {
  if (!s.minted) return 'not_minted'
  if (!s.registered) return 'not_registered'
  if (s.paused) return 'paused'
  if (s.pools.length === 0) return 'no_pool'
  if (feedAgeSec === null) return 'feed_unavailable'
  if (feedAgeSec > STOCK_FEED_HEARTBEAT_SEC) return 'feed_stale'
  return null
}
