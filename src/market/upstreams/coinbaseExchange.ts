import { z } from 'zod'
import { UpstreamError } from '../../errors.js'
import { createTtlCache } from '../../ttlCache.js'
import type { FetchJson } from './fetchJson.js'
import { type SendLimit, throughLimit, UNLIMITED } from './windowLimit.js'
import { wireNumber, wirePrice } from './wireNumbers.js'

const NAME = 'Coinbase Exchange'
const num = wireNumber
const productsSchema = z.array(z.object({ id: z.string(), status: z.string().optional() }))
const tickerSchema = z.object({ price: wirePrice, volume: num })
const statsSchema = z.object({
  open: wirePrice,
  high: wirePrice,
  low: wirePrice,
  last: wirePrice,
  volume: num,
})
/** Rows are [time, low, high, open, close, volume], newest first. */
const candlesSchema = z.array(
  z.tuple([num, wirePrice, wirePrice, wirePrice, wirePrice, num]).rest(z.unknown()),
)

export interface ExchangeCandle {
  time: number
  open: number
  high: number
  low: number
  close: number
  /** Traded volume in base-asset units. */
  volume: number
}

export interface CoinbaseExchange {
  /** Product ids that are online (e.g. BTC-USD). */
  products(): Promise<Set<string>>
  ticker(productId: string): Promise<z.infer<typeof tickerSchema>>
  stats(productId: string): Promise<z.infer<typeof statsSchema>>
  /** At most 300 bars per call (the exchange's limit), oldest first. */
  candles(
    productId: string,
    granularitySec: number,
    startSec: number,
    endSec: number,
  ): Promise<ExchangeCandle[]>
}

/**
 * Coinbase Exchange public REST (protocols.md §7c), cached: products 10 min, ticker and stats 2 s, candles
 * 60 s per (product, granularity, start, end). Requests go out through `limit` (within the exchange's
 * public bucket of 10 a second, bursts to 15: COINBASE_MAX_RPS), so a wide fan-out (a year of daily bars
 * for 20 markets) waits rather than drawing 429s; a 429 (no Retry-After is documented) pauses sends 1 s.
 */
export function createCoinbaseExchange(
  baseUrl: string,
  fetchJson: FetchJson,
  limit: SendLimit = UNLIMITED,
): CoinbaseExchange {
  const get = async <S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S>> => {
    // Cache misses only reach here: each waits its turn under the exchange's public rate limit.
    const body = await throughLimit(limit, 1000, () => fetchJson(NAME, `${baseUrl}${path}`))
    const parsed = schema.safeParse(body)
    if (!parsed.success) throw new UpstreamError(NAME, `unexpected shape at ${path.split('?')[0]}`)
    return parsed.data
  }
  const productCache = createTtlCache<Set<string>>(600_000)
  const tickerCache = createTtlCache<z.infer<typeof tickerSchema>>(2000)
  const statsCache = createTtlCache<z.infer<typeof statsSchema>>(2000)
  const candleCache = createTtlCache<ExchangeCandle[]>(60_000, Date.now, 1000)
  return {
    products: () =>
      productCache.get('all', async () => {
        const list = await get('/products', productsSchema)
        return new Set(list.filter((p) => p.status === undefined || p.status === 'online').map((p) => p.id))
      }),
    ticker: (id) => tickerCache.get(id, () => get(`/products/${id}/ticker`, tickerSchema)),
    stats: (id) => statsCache.get(id, () => get(`/products/${id}/stats`, statsSchema)),
    candles: (id, granularitySec, startSec, endSec) =>
      candleCache.get(`${id}|${granularitySec}|${startSec}|${endSec}`, async () => {
        const start = new Date(startSec * 1000).toISOString()
        const end = new Date(endSec * 1000).toISOString()
        const rows = await get(
          `/products/${id}/candles?granularity=${granularitySec}&start=${start}&end=${end}`,
          candlesSchema,
        )
        return rows
          .map(([time, low, high, open, close, volume]) => ({ time, open, high, low, close, volume }))
          .sort((a, b) => a.time - b.time)
      }),
  }
}
