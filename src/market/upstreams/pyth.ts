import { z } from 'zod'
import { UpstreamError } from '../../errors.js'
import { createTtlCache } from '../../ttlCache.js'
import type { FetchJson } from './fetchJson.js'
import { pausingOn429, type SendLimit, throughLimit, UNLIMITED } from './windowLimit.js'

const HERMES = 'Pyth Hermes'
const BENCHMARKS = 'Pyth Benchmarks'

/**
 * Hermes's `PriceFeedMetadata`: `{ id, attributes }`, the attributes a free-form map of strings whose keys
 * differ by asset class (an index or a rate has no `base` or no `quote_currency`). The catalogue is read
 * entry by entry: an entry lacking what a lookup needs is left out, never the whole catalogue.
 */
const feedsSchema = z.array(z.unknown())
const feedSchema = z.object({
  id: z.string().regex(/^(0x)?[0-9a-fA-F]{64}$/),
  attributes: z.looseObject({
    asset_type: z.string(),
    base: z.string(),
    quote_currency: z.string(),
    symbol: z.string(),
  }),
})
const latestSchema = z.object({
  parsed: z.array(
    z.object({
      id: z.string(),
      // RpcPrice: the mantissa a signed integer string, expo and publish_time integers.
      price: z.object({
        price: z.string().regex(/^-?\d+$/),
        expo: z.number().int(),
        publish_time: z.number().int(),
      }),
    }),
  ),
})
const historySchema = z.union([
  z
    .object({
      s: z.literal('ok'),
      t: z.array(z.number().int()),
      o: z.array(z.number().positive()),
      h: z.array(z.number().positive()),
      l: z.array(z.number().positive()),
      c: z.array(z.number().positive()),
    })
    .refine((h) => [h.o, h.h, h.l, h.c].every((a) => a.length === h.t.length), {
      error: 'every series must have a value per bar',
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
  /**
   * Latest prices by feed id, each cached 2 s; the ids missing from the cache, across every caller asking
   * at once, go out together in one request (at most LATEST_IDS_PER_REQUEST ids each).
   */
  latest(ids: readonly string[]): Promise<Map<string, PythPrice>>
  /** TradingView-shim history; resolution in minutes ("60", "360") or "1D". */
  history(symbol: string, resolution: string, fromSec: number, toSec: number): Promise<PythBar[]>
}

/** Pyth documents no cap on ids per request (UNCERTAIN); 100 ids keep the URL near 7 KB. */
export const LATEST_IDS_PER_REQUEST = 100
/** Pyth's documented lock-out after a 429: no request is answered for the next 60 s. */
const PYTH_LOCK_OUT_MS = 60_000
/**
 * Each latest price is kept 2 s: under steady load the batched requests then come every 2 s at most, half
 * of Hermes's 10 per 10 s, leaving room for the catalogue and bursts (Pyth publishes every 400 ms; every
 * answer carries its publish time).
 */
const LATEST_TTL_MS = 2000

export interface PythOptions {
  /** The Pyth API key, sent to Hermes and Benchmarks as `Authorization: Bearer <key>`. */
  apiKey?: string
  /** Hermes's limit (documented: 10 requests per 10 s per IP); none: every request goes at once. */
  hermesLimit?: SendLimit
  /** Benchmarks' TradingView shim limit (documented: 90 requests per 10 s per IP). */
  benchmarksLimit?: SendLimit
  now?: () => number
}

/**
 * One Hermes request for the latest prices of `ids` (the batch has its turn under the limit already: sent
 * without taking another), by lower-case id without 0x. `parsed` and `ignore_invalid_price_ids` are set
 * whatever the defaults: we read `parsed`, and an id Hermes has dropped must not fail the others. A feed
 * with no positive price (not yet published, or broken) is left out: absent, never 0.
 */
async function readLatest(
  fetchJson: FetchJson,
  hermesUrl: string,
  auth: Record<string, string> | undefined,
  limit: SendLimit,
  ids: readonly string[],
): Promise<Map<string, PythPrice>> {
  const query = ids.map((id) => `ids[]=${id}`).join('&')
  const raw = await pausingOn429(limit, PYTH_LOCK_OUT_MS, () =>
    fetchJson(
      HERMES,
      `${hermesUrl}/v2/updates/price/latest?${query}&parsed=true&ignore_invalid_price_ids=true`,
      auth,
      [401, 403],
    ),
  )
  const parsed = latestSchema.safeParse(raw)
  if (!parsed.success) throw new UpstreamError(HERMES, 'unexpected price update shape')
  const prices = new Map<string, PythPrice>()
  for (const p of parsed.data.parsed) {
    const price = Number(p.price.price) * 10 ** p.price.expo
    if (!(price > 0 && Number.isFinite(price))) continue
    prices.set(p.id.replace(/^0x/, '').toLowerCase(), { price, publishTime: p.price.publish_time })
  }
  return prices
}

/**
 * Pyth Hermes (latest prices, feed catalogue) and Benchmarks (history), protocols.md §7c; the contract is
 * the official SDK's (test/fixtures/upstreams/pyth). Both require the Pyth API key since Pyth's Core
 * upgrade (2026-08-18). Cached: feeds 1 h, each latest price 2 s, history 60 s per (symbol, resolution,
 * from, to). Every request waits its turn under the upstream's documented limit, and a 429 pauses
 * that upstream for Pyth's 60 s lock-out.
 */
export function createPyth(
  hermesUrl: string,
  benchmarksUrl: string,
  fetchJson: FetchJson,
  options: PythOptions = {},
): Pyth {
  const now = options.now ?? Date.now
  const auth = options.apiKey === undefined ? undefined : { authorization: `Bearer ${options.apiKey}` }
  // A refused key (401 without one, 403 for a revoked or unentitled one) is an outage: the circuit opens.
  const hermes = (url: string) =>
    throughLimit(options.hermesLimit ?? UNLIMITED, PYTH_LOCK_OUT_MS, () =>
      fetchJson(HERMES, url, auth, [401, 403]),
    )
  const benchmarks = (url: string) =>
    throughLimit(options.benchmarksLimit ?? UNLIMITED, PYTH_LOCK_OUT_MS, () =>
      fetchJson(BENCHMARKS, url, auth, [401, 403]),
    )
  const feedCache = createTtlCache<PythFeed[]>(3_600_000)
  const historyCache = createTtlCache<PythBar[]>(60_000, Date.now, 1000)

  /** Each id's last answer: its price, or null when Hermes had none (unknown id, no positive price). */
  const fresh = new Map<string, { at: number; price: PythPrice | null }>()
  /** The batch still gathering ids (waiting for its turn under the limit); null when none is. */
  let gathering: { ids: Set<string>; sent: Promise<void> } | null = null
  /** The request (gathering or on the wire) that will answer each id: a stale id waits on it, never sends again. */
  const pending = new Map<string, Promise<void>>()

  async function fetchLatest(ids: readonly string[]): Promise<void> {
    const prices = await readLatest(fetchJson, hermesUrl, auth, options.hermesLimit ?? UNLIMITED, ids)
    const at = now()
    for (const id of ids) fresh.set(id, { at, price: null })
    for (const [id, price] of prices) fresh.set(id, { at, price })
  }

  /** Joins the batch still gathering, or opens one; it leaves once the limit gives it a turn. */
  function request(id: string): Promise<void> {
    const inFlight = pending.get(id)
    if (inFlight !== undefined) return inFlight
    if (gathering !== null && gathering.ids.size < LATEST_IDS_PER_REQUEST) {
      gathering.ids.add(id)
      pending.set(id, gathering.sent)
      return gathering.sent
    }
    const batch = { ids: new Set([id]), sent: Promise.resolve() }
    gathering = batch
    batch.sent = (async () => {
      try {
        // Let the callers of this tick join before the turn is asked for.
        await Promise.resolve()
        try {
          await (options.hermesLimit ?? UNLIMITED).take()
        } finally {
          if (gathering === batch) gathering = null
        }
        await fetchLatest([...batch.ids])
      } finally {
        for (const id of batch.ids) if (pending.get(id) === batch.sent) pending.delete(id)
      }
    })()
    pending.set(id, batch.sent)
    return batch.sent
  }

  return {
    feeds: () =>
      feedCache.get('all', async () => {
        const parsed = feedsSchema.safeParse(await hermes(`${hermesUrl}/v2/price_feeds`))
        if (!parsed.success) throw new UpstreamError(HERMES, 'unexpected feed catalogue shape')
        const feeds = parsed.data.flatMap((entry) => {
          const f = feedSchema.safeParse(entry)
          if (!f.success) return []
          const { attributes: a } = f.data
          return [
            {
              id: f.data.id.replace(/^0x/, '').toLowerCase(),
              symbol: a.symbol,
              assetType: a.asset_type,
              base: a.base,
              quote: a.quote_currency,
            },
          ]
        })
        // A catalogue with entries yet none readable is a changed format, not an empty catalogue.
        if (feeds.length === 0 && parsed.data.length > 0)
          throw new UpstreamError(HERMES, 'no readable entry in the feed catalogue')
        return feeds
      }),
    async latest(ids) {
      const wanted = [...new Set(ids.map((id) => id.replace(/^0x/, '').toLowerCase()))]
      const stale = () => wanted.filter((id) => !((fresh.get(id)?.at ?? -Infinity) > now() - LATEST_TTL_MS))
      await Promise.all([...new Set(stale().map(request))])
      const prices = new Map<string, PythPrice>()
      for (const id of wanted) {
        const price = fresh.get(id)?.price
        if (price) prices.set(id, price)
      }
      return prices
    },
    history: (symbol, resolution, fromSec, toSec) =>
      historyCache.get(`${symbol}|${resolution}|${fromSec}|${toSec}`, async () => {
        const url = `${benchmarksUrl}/v1/shims/tradingview/history?symbol=${encodeURIComponent(symbol)}&resolution=${resolution}&from=${fromSec}&to=${toSec}`
        const parsed = historySchema.safeParse(await benchmarks(url))
        if (!parsed.success) throw new UpstreamError(BENCHMARKS, 'unexpected history shape')
        const h = parsed.data
        if (h.s !== 'ok') {
          // The contract answers an empty range `s: "ok"` with empty arrays; UDF's `no_data` is read alike.
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
