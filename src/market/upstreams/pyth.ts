import { z } from 'zod'
import { UpstreamError } from '../../errors.js'
import { createTtlCache } from '../../ttlCache.js'
import type { FetchJson } from './fetchJson.js'

const HERMES = 'Pyth Hermes'
const BENCHMARKS = 'Pyth Benchmarks'

const feedsSchema = z.array(
  z.object({
    id: z.string(),
    attributes: z.object({
      asset_type: z.string(),
      base: z.string(),
      quote_currency: z.string(),
      symbol: z.string(),
    }),
  }),
)
const latestSchema = z.object({
  parsed: z.array(
    z.object({
      id: z.string(),
      price: z.object({ price: z.string(), expo: z.number(), publish_time: z.number() }),
    }),
  ),
})
const historySchema = z.union([
  z.object({
    s: z.literal('ok'),
    t: z.array(z.number()),
    o: z.array(z.number()),
    h: z.array(z.number()),
    l: z.array(z.number()),
    c: z.array(z.number()),
  }),
  z.object({ s: z.enum(['no_data', 'error']), errmsg: z.string().optional() }),
])

export interface PythFeed {
  id: string
  symbol: string
  assetType: string
  base: string
  quote: string
}

export interface PythPrice {
  price: number
  publishTime: number
}

export interface PythBar {
  time: number
  open: number
  high: number
  low: number
  close: number
}

export interface Pyth {
  /** The feed catalogue (cached 1 h). */
  feeds(): Promise<PythFeed[]>
  /** Latest prices by feed id (cached 1 s per id set). */
  latest(ids: readonly string[]): Promise<Map<string, PythPrice>>
  /** TradingView-shim history; resolution in minutes ("60", "360") or "1D". */
  history(symbol: string, resolution: string, fromSec: number, toSec: number): Promise<PythBar[]>
}

/**
 * Pyth Hermes (latest prices, feed catalogue) and Benchmarks (history), protocols.md §7c. Cached: feeds
 * 1 h, latest 1 s per id set, history 60 s per (symbol, resolution, from, to).
 */
export function createPyth(
  hermesUrl: string,
  benchmarksUrl: string,
  fetchJson: FetchJson,
  apiKey?: string,
): Pyth {
  // Hermes requires a Pyth API key since Pyth's Core upgrade (2026): `Authorization: Bearer <key>`.
  const auth = apiKey === undefined ? undefined : { authorization: `Bearer ${apiKey}` }
  // A refused key (401 without one, 403 for a revoked one) is an outage: the circuit opens.
  const hermes = (url: string) => fetchJson(HERMES, url, auth, [401, 403])
  const feedCache = createTtlCache<PythFeed[]>(3_600_000)
  const latestCache = createTtlCache<Map<string, PythPrice>>(1000)
  const historyCache = createTtlCache<PythBar[]>(60_000, Date.now, 1000)
  return {
    feeds: () =>
      feedCache.get('all', async () => {
        const parsed = feedsSchema.safeParse(await hermes(`${hermesUrl}/v2/price_feeds`))
        if (!parsed.success) throw new UpstreamError(HERMES, 'unexpected feed catalogue shape')
        return parsed.data.map((f) => ({
          id: f.id.replace(/^0x/, '').toLowerCase(),
          symbol: f.attributes.symbol,
          assetType: f.attributes.asset_type,
          base: f.attributes.base,
          quote: f.attributes.quote_currency,
        }))
      }),
    latest(ids) {
      const sorted = [...new Set(ids)].sort()
      return latestCache.get(sorted.join(','), async () => {
        if (sorted.length === 0) return new Map()
        const query = sorted.map((id) => `ids[]=${id}`).join('&')
        const raw = await hermes(
          `${hermesUrl}/v2/updates/price/latest?${query}&parsed=true&ignore_invalid_price_ids=true`,
        )
        const parsed = latestSchema.safeParse(raw)
        if (!parsed.success) throw new UpstreamError(HERMES, 'unexpected price update shape')
        return new Map(
          parsed.data.parsed.map((p) => [
            p.id.replace(/^0x/, '').toLowerCase(),
            { price: Number(p.price.price) * 10 ** p.price.expo, publishTime: p.price.publish_time },
          ]),
        )
      })
    },
    history: (symbol, resolution, fromSec, toSec) =>
      historyCache.get(`${symbol}|${resolution}|${fromSec}|${toSec}`, async () => {
        const url = `${benchmarksUrl}/v1/shims/tradingview/history?symbol=${encodeURIComponent(symbol)}&resolution=${resolution}&from=${fromSec}&to=${toSec}`
        const parsed = historySchema.safeParse(await fetchJson(BENCHMARKS, url))
        if (!parsed.success) throw new UpstreamError(BENCHMARKS, 'unexpected history shape')
        const h = parsed.data
        if (h.s !== 'ok') {
          if (h.s === 'no_data') return []
          throw new UpstreamError(BENCHMARKS, h.errmsg ?? 'error')
        }
        return h.t.map((time, i) => ({
          time,
          open: h.o[i] as number,
          high: h.h[i] as number,
          low: h.l[i] as number,
          close: h.c[i] as number,
        }))
      }),
  }
}
