import { z } from 'zod'
import type { Bar } from '../analytics/bar.js'
import { readChart } from '../analytics/readChart.js'
import { symbol, unixSeconds } from '../chain/fields.js'
import { UpstreamError } from '../errors.js'
import { getRecentBars } from './candles/getCandles.js'
import type { MarketData } from './marketData.js'
import { round, significant } from './numbers.js'
import { canonicalSymbol } from './prices/getPrices.js'

/** Bars a chart read asks for: one exchange call (its limit is 300 bars). */
export const CHART_BARS = 300
export const TA_DISCLAIMER = 'Indicative, not advice; experimental, no established edge'

/** The disclaimer field of the chart reads (GET /v1/ta/{sym} and /v1/ta/scan). */
export const TA_DISCLAIMER_TEXT = z
  .string()
  .describe('Indicative, not advice; experimental, no established edge')

const markerKind = z.enum([
  'golden-cross',
  'death-cross',
  'macd-cross-up',
  'macd-cross-down',
  'bullish-divergence',
  'bearish-divergence',
  'breakout',
  'breakdown',
  'higher-high',
  'higher-low',
  'lower-high',
  'lower-low',
])

const INSUFFICIENT = 'null with insufficient_history (fewer than 50 bars: no made-up value)'

/** What the read answers (the route's output schema). */
export const chartReadOutput = z.object({
  symbol,
  source: z.string().describe('Candle source: exchange product (BTC-USD) or oracle symbol (FX.EUR/USD)'),
  granularitySec: z.number().int(),
  status: z
    .enum(['ok', 'insufficient_history'])
    .describe('insufficient_history when the source has fewer than 50 whole bars in the window'),
  needed: z.number().int().nullable().describe('Bars the read needs (50); null when ok'),
  got: z.number().int().nullable().describe('Bars the source had; null when ok'),
  trend: z
    .enum(['up', 'down', 'flat'])
    .nullable()
    .describe(
      `(SMA20 now − SMA20 5 bars ago) / σ20: up above +0.25, down below −0.25, else flat; ${INSUFFICIENT}`,
    ),
  momentum: z
    .object({
      rsi: z.number().describe('Wilder RSI(14) on the last bar, 0..100, 4 decimals'),
      macdHistogram: z.number().describe('MACD(12/26/9) line minus signal on the last bar, price units'),
      state: z.enum(['rising', 'falling', 'neutral']),
    })
    .nullable()
    .describe(
      `rising: histogram > 0 and RSI > 50; falling: histogram < 0 and RSI < 50; else neutral; ${INSUFFICIENT}`,
    ),
  support: z
    .number()
    .nullable()
    .describe(`Highest confirmed swing-low close below the last close; null when none or ${INSUFFICIENT}`),
  resistance: z
    .number()
    .nullable()
    .describe(`Lowest confirmed swing-high close above the last close; null when none or ${INSUFFICIENT}`),
  markers: z
    .array(
      z.object({ t: unixSeconds, kind: markerKind, price: z.number().describe('Close of the bar at t') }),
    )
    .nullable()
    .describe(`The latest 20 chart events, oldest first; ${INSUFFICIENT}`),
  gaps: z
    .number()
    .int()
    .nullable()
    .describe(`Consecutive bars more than 1.5 bars apart (never filled); ${INSUFFICIENT}`),
  barsUsed: z.number().int().describe('Whole bars read (at most 300)'),
  lastBarTime: unixSeconds.describe(
    'Start of the last bar used (the window ends at the start of the current bar)',
  ),
  experimental: z.literal(true),
  disclaimer: TA_DISCLAIMER_TEXT,
})

export type ChartReadAnswer = z.output<typeof chartReadOutput>

/**
 * Chart read (`readChart`) of the last CHART_BARS whole bars of `granularitySec` for `sym`, from the candle
 * path (`getRecentBars`: exchange product SYM-USD, else the oracle feed). An unknown symbol throws
 * UnknownInstrumentError (404, field `sym`); a known one with no bar at all is an UpstreamError (502).
 */
export async function getChartRead(
  market: MarketData,
  sym: string,
  granularitySec: number,
  nowMs: number,
): Promise<ChartReadAnswer> {
  const symbol = canonicalSymbol(sym)
  const candles = await getRecentBars(
    market,
    { sym: symbol, quote: 'USD', granularitySec, bars: CHART_BARS },
    nowMs,
  )
  const last = candles.bars.at(-1)
  if (last === undefined) throw new UpstreamError('candles', `no bars for ${candles.productId}`)
  const bars: Bar[] = candles.bars.map((b) => ({ ...b, t: b.time }))
  const read = readChart(bars, granularitySec)
  const head = { symbol, source: candles.productId, granularitySec }
  const tail = {
    barsUsed: bars.length,
    lastBarTime: last.time,
    experimental: true as const,
    disclaimer: TA_DISCLAIMER,
  }
  if (read.status === 'insufficient_history') {
    return {
      ...head,
      status: read.status,
      needed: read.needed,
      got: read.got,
      trend: null,
      momentum: null,
      support: null,
      resistance: null,
      markers: null,
      gaps: null,
      ...tail,
    }
  }
  return {
    ...head,
    status: 'ok',
    needed: null,
    got: null,
    trend: read.trend,
    momentum: {
      rsi: round(read.momentum.rsi, 4),
      macdHistogram: significant(read.momentum.macdHistogram),
      state: read.momentum.state,
    },
    support: read.support,
    resistance: read.resistance,
    markers: read.markers,
    gaps: read.gaps,
    ...tail,
  }
}
