import { z } from 'zod'
import type { Bar } from '../../analytics/bar.js'
import { buySellDominance, type Dominance } from '../../analytics/buySellDominance.js'
import { overallLean } from '../../analytics/overallLean.js'
import { symbol, unixSeconds } from '../../chain/fields.js'
import { UpstreamError } from '../../errors.js'
import { type CandleBars, getRecentBars, UnknownInstrumentError } from '../candles/getCandles.js'
import { TA_DISCLAIMER, TA_DISCLAIMER_TEXT } from '../getChartRead.js'
import type { MarketData } from '../marketData.js'
import { round } from '../numbers.js'
import { canonicalSymbol } from '../prices/getPrices.js'
import { UnknownScanSymbolError } from './unknownScanSymbolError.js'

/** Bars per frame of a scan. */
export const SCAN_BARS = 60
const FRAMES = [
  ['1m', 60],
  ['5m', 300],
  ['15m', 900],
] as const
type FrameName = (typeof FRAMES)[number][0]

const frame = z
  .object({
    buyPct: z.number().describe('Buy share of the frame’s weight, 0..100'),
    sellPct: z.number().describe('Sell share, 100 − buyPct'),
    dominance: z.enum(['buy', 'sell', 'even']).describe('buy at buyPct ≥ 55, sell at ≤ 45, else even'),
    basis: z
      .enum(['volume', 'count'])
      .describe('volume-weighted, or each bar weighs 1 where the source has no volume'),
    bars: z.number().int().describe('Bars read, at most 60'),
    lastBarTime: unixSeconds.describe('Start of the last bar read'),
  })
  .nullable()
  .describe('null with fewer than 10 bars in the frame (insufficient history)')

/** What the read answers (the route's output schema). */
export const taScanOutput = z.object({
  scans: z.array(
    z.object({
      symbol,
      source: z.string().describe('Candle source: exchange product (BTC-USD) or oracle symbol (FX.EUR/USD)'),
      status: z.enum(['ok', 'insufficient_history']).describe('insufficient_history when any frame is null'),
      frames: z.object({ '1m': frame, '5m': frame, '15m': frame }),
      lean: z
        .enum(['buy', 'sell', 'even'])
        .nullable()
        .describe(
          'Mean buyPct of the frames with a read: buy ≥ 55, sell ≤ 45, else even; null when no frame has one',
        ),
    }),
  ),
  unknown: z.array(z.string()).describe('Requested tickers with no USD product or feed'),
  disclaimer: TA_DISCLAIMER_TEXT,
})

export type ScanFrame = NonNullable<TaScanEntry['frames'][FrameName]>
export type TaScanEntry = TaScan['scans'][number]
export type TaScan = z.output<typeof taScanOutput>

/**
 * Buy/sell dominance of the last SCAN_BARS whole bars on the 1m, 5m and 15m frames per symbol (all frames
 * and symbols read concurrently through `getRecentBars`), and one lean per symbol (`overallLean` over the
 * frames that have a read). A frame with fewer than DOMINANCE_MIN_BARS bars is null and the symbol's status
 * is `insufficient_history`. Unknown symbols are listed apart; all unknown → UnknownScanSymbolError (400);
 * no bar at all for any known symbol → UpstreamError (502).
 */
export async function getTaScan(
  market: MarketData,
  symbols: readonly string[],
  nowMs: number,
): Promise<TaScan> {
  const wanted = [...new Set(symbols.map(canonicalSymbol))]
  const reads = await Promise.all(
    wanted.map((sym) =>
      Promise.all(
        FRAMES.map(([, granularitySec]) =>
          getRecentBars(market, { sym, quote: 'USD', granularitySec, bars: SCAN_BARS }, nowMs).catch(
            (e: unknown) => {
              if (e instanceof UnknownInstrumentError) return null
              throw e
            },
          ),
        ),
      ),
    ),
  )
  const unknown = wanted.filter((_, i) => reads[i]?.some((r) => r === null))
  if (unknown.length === wanted.length) throw new UnknownScanSymbolError(unknown)
  const known = reads.filter((r): r is CandleBars[] => r.every((f) => f !== null))
  if (known.every((frames) => frames.every((f) => f.bars.length === 0))) {
    throw new UpstreamError('candles', 'no bars for any requested symbol')
  }

  const scans: TaScanEntry[] = []
  reads.forEach((frames, i) => {
    if (frames.some((f) => f === null)) return
    const read: Dominance[] = []
    const out = {} as Record<FrameName, ScanFrame | null>
    FRAMES.forEach(([name], k) => {
      const candles = frames[k] as CandleBars
      const bars: Bar[] = candles.bars.map((b) => ({ ...b, t: b.time }))
      const d = buySellDominance(bars)
      if (d.status !== 'ok') {
        out[name] = null
        return
      }
      read.push(d)
      out[name] = {
        buyPct: round(d.buyPct, 4),
        sellPct: round(d.sellPct, 4),
        dominance: d.dominance,
        basis: d.basis,
        bars: bars.length,
        lastBarTime: (bars.at(-1) as Bar).t,
      }
    })
    scans.push({
      symbol: wanted[i] as string,
      source: (frames[0] as CandleBars).productId,
      status: read.length === FRAMES.length ? 'ok' : 'insufficient_history',
      frames: out,
      lean: read.length === 0 ? null : overallLean(read),
    })
  })
  return { scans, unknown, disclaimer: TA_DISCLAIMER }
}
