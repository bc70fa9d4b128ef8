import { Hono } from 'hono'
import type { MarketSimulator, SimClock } from '../simulator/marketSimulator.js'
import type { Instrument } from '../simulator/universe.js'
import { limitRate, type RateLimit } from './upstreamGuards.js'
import { fixed, isoMicros, parseTimeParam, quoteDecimals, roundTo } from './wireFormat.js'

/**
 * Coinbase Exchange public market data (api.exchange.coinbase.com), for the crypto products Coinbase
 * lists. Wire details per protocols.md §7c and the Exchange REST docs: ticker/stats values are strings,
 * candle rows are numbers [time, low, high, open, close, volume] newest first, at most 300 per request.
 */

export const COINBASE_GRANULARITIES = [60, 300, 900, 3600, 21600, 86400] as const
const MAX_CANDLES = 300
const BASE_DECIMALS = 8

export interface CoinbaseExchangeAppOptions {
  sim: MarketSimulator
  clock?: SimClock
  /** Default: the public endpoints' documented 10 requests per second per IP (COINBASE_RATE_LIMIT). */
  rateLimit?: RateLimit
}

/**
 * Coinbase documents a lazy-fill token bucket for public endpoints: 10 requests per second per IP, bursts
 * to 15; past it a 429 with the body third parties report ("Public rate limit exceeded"; Coinbase
 * documents the status only).
 */
export const COINBASE_RATE_LIMIT: RateLimit = { max: 10, windowMs: 1000, burst: 15 }

export function createCoinbaseExchangeApp(options: CoinbaseExchangeAppOptions): Hono {
  const { sim } = options
  const clock = options.clock ?? sim.clock
  const products = new Map<string, Instrument>()
  for (const inst of sim.universe) if (inst.coinbaseProduct) products.set(inst.coinbaseProduct, inst)

  const app = new Hono()
  const notFound = { message: 'NotFound' }
  app.notFound((c) => c.json(notFound, 404))
  limitRate(app, options.rateLimit ?? COINBASE_RATE_LIMIT, (c) =>
    c.json({ message: 'Public rate limit exceeded' }, 429),
  )

  const productJson = (inst: Instrument) => {
    const decimals = quoteDecimals(inst.basePrice)
    return {
      id: inst.coinbaseProduct,
      base_currency: inst.from,
      quote_currency: inst.to,
      quote_increment: fixed(10 ** -decimals, decimals),
      base_increment: fixed(10 ** -BASE_DECIMALS, BASE_DECIMALS),
      display_name: `${inst.from}-${inst.to}`,
      min_market_funds: '1',
      margin_enabled: false,
      post_only: false,
      limit_only: false,
      cancel_only: false,
      status: 'online',
      status_message: '',
      trading_disabled: false,
      fx_stablecoin: false,
      max_slippage_percentage: '0.03000000',
      auction_mode: false,
      high_bid_limit_percentage: '',
    }
  }

  app.get('/products', (c) => c.json([...products.values()].map(productJson)))

  app.get('/products/:id', (c) => {
    const inst = products.get(c.req.param('id').toUpperCase())
    return inst ? c.json(productJson(inst)) : c.json(notFound, 404)
  })

  app.get('/products/:id/ticker', (c) => {
    const inst = products.get(c.req.param('id').toUpperCase())
    if (!inst) return c.json(notFound, 404)
    const nowMs = clock.now()
    const decimals = quoteDecimals(inst.basePrice)
    const tick = 10 ** -decimals
    const price = sim.spot(inst.symbol, nowMs)
    const stats = sim.stats24h(inst.symbol, nowMs)
    // Last trade: one every 100 ms on average; its size scales with the product's turnover. The id is an
    // int32 in the contract (apiProductTicker): about 950 million in late 2026, within int32 until 2032.
    const tradeId = Math.floor(nowMs / 100) - 17_000_000_000
    const size = (inst.dailyVolumeUsd / 864_000 / price) * (0.2 + ((tradeId * 2654435761) % 1000) / 500)
    return c.json({
      ask: fixed(roundTo(price, decimals) + tick, decimals),
      bid: fixed(roundTo(price, decimals), decimals),
      volume: fixed(stats.volume, BASE_DECIMALS),
      trade_id: tradeId,
      price: fixed(roundTo(price, decimals), decimals),
      size: fixed(size, BASE_DECIMALS),
      time: isoMicros(nowMs),
    })
  })

  app.get('/products/:id/stats', (c) => {
    const inst = products.get(c.req.param('id').toUpperCase())
    if (!inst) return c.json(notFound, 404)
    const decimals = quoteDecimals(inst.basePrice)
    const s = sim.stats24h(inst.symbol, clock.now())
    return c.json({
      open: fixed(s.open, decimals),
      high: fixed(s.high, decimals),
      low: fixed(s.low, decimals),
      last: fixed(s.last, decimals),
      volume: fixed(s.volume, BASE_DECIMALS),
      volume_30day: fixed(s.volume30d, BASE_DECIMALS),
    })
  })

  app.get('/products/:id/candles', (c) => {
    const inst = products.get(c.req.param('id').toUpperCase())
    if (!inst) return c.json(notFound, 404)
    // UNCERTAIN: a missing granularity defaults to 60 here; the docs list it as optional without a default.
    const rawGranularity = c.req.query('granularity') ?? '60'
    const granularity = Number(rawGranularity)
    if (!(COINBASE_GRANULARITIES as readonly number[]).includes(granularity)) {
      return c.json({ message: 'Unsupported granularity' }, 400)
    }
    const nowSec = clock.now() / 1000
    const rawStart = c.req.query('start')
    const rawEnd = c.req.query('end')
    let start: number
    let end: number
    // Documented: if either start or end is missing, both are ignored and the range ends now.
    if (rawStart && rawEnd) {
      const s = parseTimeParam(rawStart)
      const e = parseTimeParam(rawEnd)
      // UNCERTAIN: exact message text for unparseable times.
      if (s === undefined) return c.json({ message: 'Invalid start' }, 400)
      if (e === undefined) return c.json({ message: 'Invalid end' }, 400)
      if (e < s) return c.json({ message: 'start must be before end' }, 400)
      if ((e - s) / granularity > MAX_CANDLES) {
        return c.json(
          {
            message: `granularity too small for the requested time range. Count of aggregations requested exceeds ${MAX_CANDLES}`,
          },
          400,
        )
      }
      start = s
      end = e
    } else {
      end = nowSec
      start = end - MAX_CANDLES * granularity
    }
    const decimals = quoteDecimals(inst.basePrice)
    // UNCERTAIN: end treated as inclusive (a bucket starting exactly at `end` is listed).
    const rows = sim
      .candles(inst.symbol, start, end + 1, granularity)
      .slice(-MAX_CANDLES)
      .reverse()
      .map((k) => [
        k.time,
        roundTo(k.low, decimals),
        roundTo(k.high, decimals),
        roundTo(k.open, decimals),
        roundTo(k.close, decimals),
        roundTo(k.volume, BASE_DECIMALS),
      ])
    return c.json(rows)
  })

  return app
}
