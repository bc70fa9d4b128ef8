import { z } from 'zod'
import { computeSignal } from '../../analytics/computeSignal.js'
import { symbol, unixSeconds } from '../../chain/fields.js'
import { AppError, UpstreamError } from '../../errors.js'
import { getCandleBars, UnknownInstrumentError } from '../candles/getCandles.js'
import type { MarketData } from '../marketData.js'
import { round, significant } from '../numbers.js'
import { canonicalSymbol } from '../prices/getPrices.js'
import { assetClass, symbolList } from '../queryFields.js'

/** The candle basis: 7 days of hourly bars (168), the window ending at the start of the current hour. */
export const SIGNAL_DAYS = 7

/** Every requested symbol is unknown to the candle path: nothing to read, so nothing to charge for. */
export class UnknownSignalSymbolError extends AppError {
  override readonly name = 'UnknownSignalSymbolError'
  constructor(
    readonly symbols: readonly string[],
    cls: string | undefined,
    quote: string,
  ) {
    super(
      400,
      'unknown_symbol',
      cls === undefined
        ? `No price history for ${symbols.join(', ')} in ${quote}: symbols must include an exchange product ` +
            `SYM-${quote} (such as BTC, ETH) or an oracle feed (pass cls for forex, commodities, indices and ` +
            `stocks, e.g. EUR with cls=Forex).`
        : `No ${cls} price history for ${symbols.join(', ')} in ${quote}: check the tickers, cls and quote (e.g. EUR with cls=Forex, XAU with cls=Commodities).`,
      'symbols',
      { unknown: [...symbols] },
    )
  }
}

/** The query the read takes (the route's query schema). */
export const signalsQuery = z.object({
  symbols: symbolList(10),
  cls: assetClass.optional(),
  quote: z
    .string()
    .regex(/^[A-Z]{3}$/, { error: 'must be a 3-letter currency code.' })
    .default('USD'),
})

export type SignalsQuery = z.output<typeof signalsQuery>

const part = z.number().min(0).max(1).nullable()

const signal = z.object({
  symbol,
  source: z.string().describe('Candle source: exchange product (BTC-USD) or oracle symbol (FX.EUR/USD)'),
  granularitySec: z.number().int().describe('Bar size in seconds (3600)'),
  bars: z.number().int().describe('Bars used (168 for a full window)'),
  lastBarTime: unixSeconds.nullable().describe('Start of the last bar used, unix seconds; null without bars'),
  close: z.number().nullable().describe('Close of the last bar, in the quote currency'),
  rsi14: z.number().nullable().describe('Wilder RSI(14), 0..100; null under 15 bars'),
  macdHistogram: z
    .number()
    .nullable()
    .describe('MACD(12/26/9) line minus signal line, quote currency; null under 34 bars'),
  bollingerPctB: z.number().nullable().describe('Bollinger %B(20, 2σ); null under 20 bars'),
  vwapPosition: z
    .number()
    .nullable()
    .describe('(close / VWAP − 1) × 100, VWAP of the last 24 bars; null when the source has no volume'),
  sma20Trend: z.enum(['up', 'down', 'flat']).nullable().describe('SMA(20) direction; null under 25 bars'),
  headAndShoulders: z.object({
    pattern: z.enum(['none', 'top', 'inverse']),
    confidence: z.number().min(0).max(1),
  }),
  fib: z
    .object({
      swing: z.enum(['up', 'down']),
      retracement: z.number().min(0).max(1),
      level: z.number(),
    })
    .nullable()
    .describe('The window swing, the share of it the last close gave back, the nearest Fibonacci level'),
  fibConfidence: z.number().min(0).max(1).nullable(),
  sentiment: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe('Blended directional sentiment, 0 = bearish, 1 = bullish'),
  bias: z.enum(['long', 'short', 'neutral']).nullable(),
  conviction: z.number().min(0).max(1).nullable().describe('2 × |sentiment − 0.5|'),
  parts: z
    .object({
      rsi: part,
      macd: part,
      bollinger: part,
      vwap: part,
      sma: part,
      headAndShoulders: part,
      fib: part,
    })
    .describe('Every per-indicator input to the blend, 0 = bearish, 1 = bullish; null drops out'),
})

/** What the read answers (the route's output schema). */
export const signalsOutput = z.object({
  signals: z.array(signal),
  unknown: z
    .array(z.string())
    .describe('Requested tickers with no price history in that class and quote; empty when none'),
})

export type Signal = Signals['signals'][number]
export type Signals = z.output<typeof signalsOutput>

/**
 * Technical signals per symbol over SIGNAL_DAYS days of hourly candles from the candle path
 * (`getCandleBars`: the exchange's SYM-QUOTE product, else the oracle feed of `cls`), computed by
 * `computeSignal`. A symbol the candle path does not know is listed in `unknown`; when all are unknown,
 * `UnknownSignalSymbolError` (400) is thrown before any bar is read.
 */
export async function getSignals(market: MarketData, q: SignalsQuery, nowMs: number): Promise<Signals> {
  const symbols = [...new Set(q.symbols.map(canonicalSymbol))]
  const read = await Promise.all(
    symbols.map((symbol) =>
      getCandleBars(market, { sym: symbol, cls: q.cls, quote: q.quote, days: SIGNAL_DAYS }, nowMs).catch(
        (e: unknown) => {
          if (e instanceof UnknownInstrumentError) return null
          throw e
        },
      ),
    ),
  )
  const unknown = symbols.filter((_, i) => read[i] === null)
  if (unknown.length === symbols.length) throw new UnknownSignalSymbolError(unknown, q.cls, q.quote)
  // Known instruments whose source returned no bar at all (an outage, a feed with no data): an answer of
  // nulls is not worth charging for.
  if (read.every((r) => r === null || r.bars.length === 0)) {
    throw new UpstreamError('candles', 'no bars for any requested symbol')
  }

  const signals: Signal[] = []
  read.forEach((candles, i) => {
    if (candles === null) return
    const s = computeSignal(candles.bars)
    const r4 = (x: number | null) => (x === null ? null : round(x, 4))
    signals.push({
      symbol: symbols[i] as string,
      source: candles.productId,
      granularitySec: candles.granularitySec,
      bars: candles.bars.length,
      lastBarTime: candles.bars.at(-1)?.time ?? null,
      close: s.close,
      rsi14: r4(s.rsi14),
      macdHistogram: s.macdHistogram === null ? null : significant(s.macdHistogram),
      bollingerPctB: r4(s.bollingerPctB),
      vwapPosition: r4(s.vwapPosition),
      sma20Trend: s.sma20Trend,
      headAndShoulders: {
        pattern: s.headAndShoulders.pattern,
        confidence: round(s.headAndShoulders.confidence, 4),
      },
      fib:
        s.fib === null
          ? null
          : { swing: s.fib.swing, retracement: round(s.fib.retracement, 4), level: s.fib.level },
      fibConfidence: s.fib === null ? null : round(s.fib.confidence, 4),
      sentiment: s.sentiment,
      bias: s.bias,
      conviction: s.conviction,
      parts: {
        rsi: r4(s.parts.rsi),
        macd: r4(s.parts.macd),
        bollinger: r4(s.parts.bollinger),
        vwap: r4(s.parts.vwap),
        sma: r4(s.parts.sma),
        headAndShoulders: r4(s.parts.headAndShoulders),
        fib: r4(s.parts.fib),
      },
    })
  })
  return { signals, unknown }
}
