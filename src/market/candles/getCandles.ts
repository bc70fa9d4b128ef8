import { z } from 'zod'
import { symbol } from '../../chain/fields.js'
import { AppError } from '../../errors.js'
import { findPythFeed, PYTH_TYPES_BY_CLASS } from '../findPythFeed.js'
import type { MarketData } from '../marketData.js'
import { candleClass, queryInt } from '../queryFields.js'

export class UnknownInstrumentError extends AppError {
  override readonly name = 'UnknownInstrumentError'
  constructor(field: 'product' | 'sym', value: string) {
    super(
      404,
      'unknown_instrument',
      field === 'product'
        ? `No exchange product ${value} is listed. Use an online product such as BTC-USD, or sym with cls.`
        : `No price history for ${value} in that class and quote. Check sym, cls and quote.`,
      field,
    )
  }
}

/** The query the read takes (the route's query schema). */
export const candlesQuery = z
  .object({
    product: z
      .string()
      .regex(/^[A-Z0-9]{2,12}-[A-Z]{3,5}$/, { error: 'must be an exchange product such as BTC-USD.' })
      .optional(),
    sym: symbol.optional(),
    cls: candleClass.optional(),
    quote: z
      .string()
      .regex(/^[A-Z]{3,5}$/, { error: 'must be a currency code such as USD.' })
      .default('USD'),
    days: queryInt(1, 350).default(30).describe('Window in days, 1..350, default 30'),
  })
  .refine((q) => q.product !== undefined || q.sym !== undefined, {
    error: 'is required: pass product, or sym with cls.',
    path: ['product'],
  })
  .refine((q) => q.sym === undefined || q.cls !== undefined || q.product !== undefined, {
    error: 'is required with sym (Commodities, Indices, Forex, Stocks or Crypto).',
    path: ['cls'],
  })

export type CandlesQuery = z.output<typeof candlesQuery>

/** What the read answers (the route's output schema). */
export const candlesOutput = z.object({
  productId: z.string(),
  days: z.number().int(),
  granularitySec: z.number().int(),
  high: z.number().nullable().describe('Highest high of the window; null when it has no bars'),
  low: z.number().nullable().describe('Lowest low of the window; null when it has no bars'),
  candles: z.number().int(),
  series: z.array(z.tuple([z.number().int(), z.number(), z.number(), z.number(), z.number()])),
})

export type Candles = z.output<typeof candlesOutput>

/** The exchange serves at most 300 bars per request. */
const EXCHANGE_MAX_BARS = 300
const DAY = 86_400

/** Bar size by window, as the spec states: hourly up to 7 days, six-hour up to 31, daily beyond. */
export function granularityFor(days: number): number {
  if (days <= 7) return 3600
  if (days <= 31) return 21_600
  return DAY
}

/** Oracle (TradingView shim) resolution by bar size: minutes, or 1D. */
const PYTH_RESOLUTION: Readonly<Record<number, string>> = {
  60: '1',
  300: '5',
  900: '15',
  3600: '60',
  21600: '360',
  86400: '1D',
}

/** One bar of a candle window; `volume` is null where the source has no volume (the oracle history). */
export interface CandleBar {
  time: number
  open: number
  high: number
  low: number
  close: number
  volume: number | null
}

export interface CandleBars {
  productId: string
  granularitySec: number
  /** Window start (inclusive) and end (exclusive, the start of the current bar), unix seconds. */
  startSec: number
  endSec: number
  /** One bar per bar start inside the window, oldest first. */
  bars: CandleBar[]
}

/**
 * Candles from the exchange when it lists the product (or, for crypto, `SYM-QUOTE`), else from the
 * oracle's history (Pyth Benchmarks) for the symbol's feed in that class.
 */
export async function getCandles(market: MarketData, q: CandlesQuery, nowMs: number): Promise<Candles> {
  const { productId, granularitySec, bars } = await getCandleBars(market, q, nowMs)
  const series = bars.map((b): [number, number, number, number, number] => [
    b.time,
    b.open,
    b.high,
    b.low,
    b.close,
  ])
  return {
    productId,
    days: q.days,
    granularitySec,
    high: series.length === 0 ? null : Math.max(...series.map((r) => r[2])),
    low: series.length === 0 ? null : Math.min(...series.map((r) => r[3])),
    candles: series.length,
    series,
  }
}

/** The bars behind `getCandles`, with volume where the source has it (the exchange; the oracle has none). */
export async function getCandleBars(market: MarketData, q: CandlesQuery, nowMs: number): Promise<CandleBars> {
  const granularitySec = granularityFor(q.days)
  return readBars(market, q, granularitySec, q.days * DAY, nowMs)
}

export interface RecentBarsQuery {
  sym: string
  quote: string
  /** Bar size in seconds: 60, 300, 900, 3600, 21600 or 86400. */
  granularitySec: number
  /** Window length in bars (the window may hold fewer where the source has none). */
  bars: number
}

/**
 * The last `bars` whole bars of `granularitySec` for `sym` (the window ends at the start of the current
 * bar): from the exchange product SYM-QUOTE when listed, else from the oracle feed of any class.
 */
export async function getRecentBars(
  market: MarketData,
  q: RecentBarsQuery,
  nowMs: number,
): Promise<CandleBars> {
  return readBars(market, { sym: q.sym, quote: q.quote }, q.granularitySec, q.bars * q.granularitySec, nowMs)
}

async function readBars(
  market: MarketData,
  q: Omit<CandlesQuery, 'days'>,
  granularitySec: number,
  spanSec: number,
  nowMs: number,
): Promise<CandleBars> {
  // Whole bars only: the window ends at the start of the current bar.
  const end = Math.floor(nowMs / 1000 / granularitySec) * granularitySec
  const start = end - spanSec
  const products = await market.coinbase.products()

  const product = q.product ?? (q.cls === 'Crypto' || q.cls === undefined ? `${q.sym}-${q.quote}` : undefined)
  let productId: string
  let bars: CandleBar[]
  if (product !== undefined && products.has(product)) {
    productId = product
    const calls: Promise<CandleBar[]>[] = []
    // The exchange treats both ends as inclusive and returns at most 300 bars: ask for 300 bar starts
    // per call, up to the last whole bar.
    const lastBar = end - granularitySec
    for (let from = start; from <= lastBar; from += EXCHANGE_MAX_BARS * granularitySec) {
      const to = Math.min(lastBar, from + (EXCHANGE_MAX_BARS - 1) * granularitySec)
      calls.push(market.coinbase.candles(product, granularitySec, from, to))
    }
    bars = (await Promise.all(calls)).flat()
  } else if (q.product !== undefined) {
    throw new UnknownInstrumentError('product', q.product)
  } else {
    const sym = q.sym as string
    const types = q.cls === undefined ? undefined : PYTH_TYPES_BY_CLASS[q.cls]
    const feed = findPythFeed(await market.pyth.feeds(), sym, q.quote, types)
    if (feed === undefined) throw new UnknownInstrumentError('sym', sym)
    productId = feed.symbol
    const history = await market.pyth.history(
      feed.symbol,
      PYTH_RESOLUTION[granularitySec] as string,
      start,
      end - 1,
    )
    bars = history.map((b) => ({ ...b, volume: null }))
  }

  // One row per bar start inside the window, oldest first (chunk edges can repeat a bar).
  const byTime = new Map<number, CandleBar>()
  for (const b of bars) if (b.time >= start && b.time < end) byTime.set(b.time, b)
  return {
    productId,
    granularitySec,
    startSec: start,
    endSec: end,
    bars: [...byTime.values()].sort((a, b) => a.time - b.time),
  }
}
