import type { Bar } from '../analytics/bar.js'
import { type ChartMarker, type ChartTrend, readChart } from '../analytics/readChart.js'
import { UpstreamError } from '../errors.js'
import { getRecentBars } from './getCandles.js'
import { canonicalSymbol } from './getPrices.js'
import type { MarketData } from './marketData.js'
import { round, significant } from './numbers.js'

/** Bars a chart read asks for: one exchange call (its limit is 300 bars). */
export const CHART_BARS = 300
export const TA_DISCLAIMER = 'Indicative, not advice; experimental, no established edge'

export interface ChartReadAnswer {
  symbol: string
  /** The candle source: exchange product (BTC-USD) or oracle symbol (FX.EUR/USD). */
  source: string
  granularitySec: number
  status: 'ok' | 'insufficient_history'
  /** With insufficient_history: bars the read needs and bars the source had; null when ok. */
  needed: number | null
  got: number | null
  trend: ChartTrend | null
  momentum: { rsi: number; macdHistogram: number; state: 'rising' | 'falling' | 'neutral' } | null
  support: number | null
  resistance: number | null
  markers: ChartMarker[] | null
  gaps: number | null
  barsUsed: number
  lastBarTime: number
  experimental: true
  disclaimer: string
}

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
