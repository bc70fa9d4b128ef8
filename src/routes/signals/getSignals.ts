import { getSignals, signalsOutput, signalsQuery } from '../../market/signals/getSignals.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const getSignalsRoute = defineRoute({
  id: 'getSignals',
  method: 'GET',
  path: '/v1/signals',
  priceUsd: PRICES.getSignals,
  errors: ['unknown_symbol', 'upstream_not_found'],
  tier: 'data',
  summary: 'Technical signals for up to 10 symbols',
  description: prose`
    Per symbol, over 7 days of hourly candles (168 bars, ending at the start of the current hour) from the
    GET /v1/candles path: the exchange’s SYM-QUOTE product (with volume) when cls is absent and it is
    listed, else the oracle’s price history for the symbol’s feed in \`cls\` (no volume). \`source\`,
    \`bars\` and \`lastBarTime\` name the exact bars used; candles are cached 60 s per window.

    Indicators (trading-signals, over closes): \`rsi14\` Wilder RSI(14), seeded with the mean of the first
    14 changes; \`macdHistogram\` MACD(12/26/9) line minus signal line in the quote currency, EMAs seeded
    with their first input; \`bollingerPctB\` (close − lower)/(upper − lower) of Bollinger(20, 2σ,
    population σ), 0.5 on a flat window; \`vwapPosition\` (close/VWAP − 1) × 100, VWAP of the last 24 bars
    (typical price × volume), null when the source has no volume (oracle classes); \`sma20Trend\` up/down
    when SMA(20) moved more than 0.25 σ20 over the last 5 bars, else flat (σ20 = the Bollinger σ of the last
    20 closes).

    Warm-up: RSI needs 15 bars, %B and the pattern reads 20, the SMA trend 25, the MACD histogram 34; a
    value without enough bars is null, never 0 (a full window leaves 134 bars of smoothing beyond it).

    Pattern reads over closes: \`headAndShoulders\` is top, inverse or none, read from the last five zigzag
    swings (turns of at least 4 × the mean close-to-close move) ending at the last swing high (low for
    inverse): confidence = 0.3 shoulder symmetry + 0.2 head prominence + 0.1 time symmetry + 0.4 neckline
    break (1 once closed through, else half the way from the right shoulder to the neckline); under 0.5 it
    reads none with confidence 0. \`fib\`: the swing from the window’s lowest to highest close (up, low
    first) or highest to lowest (down), the last close’s retracement of it and the nearest of 0.236, 0.382,
    0.5, 0.618, 0.786; \`fibConfidence\` = max(0, 1 − |retracement − level| / 0.05).

    Parts, 0 = bearish to 1 = bullish: rsi = RSI/100; macd = 0.5 + 0.5 tanh(2 × histogram/σ20); bollinger =
    %B clamped to 0..1; vwap = 0.5 + 0.5 tanh((close − VWAP)/σ20); sma = 0.5 + 0.5 tanh(SMA20 5-bar
    change/σ20); headAndShoulders = 0.5 − 0.5 × confidence for a top, 0.5 + 0.5 × confidence for an inverse,
    0.5 for none; fib = 0.5 + 0.5 × fibConfidence in an up swing, 0.5 − 0.5 × fibConfidence in a down swing.

    \`sentiment\` = Σ wᵢ × partᵢ / Σ wᵢ over the non-null parts with weights rsi 0.15, macd 0.20, bollinger
    0.15, vwap 0.10, sma 0.15, headAndShoulders 0.15, fib 0.10, rounded to 4 decimals; \`bias\` is long when
    sentiment ≥ 0.55, short when ≤ 0.45, else neutral; \`conviction\` = 2 × |sentiment − 0.5|, 0..1. They
    are null only when no part can be computed. Other values are rounded to 4 decimals (macdHistogram to 10
    significant digits).

    All tickers of a call are read in \`cls\` and \`quote\` (default USD); without cls, a ticker the
    exchange does not list falls back to any oracle feed with that base and quote. A ticker with no price
    history is listed in \`unknown\`; when every ticker is unknown the call is refused with 400
    \`unknown_symbol\` (field \`symbols\`) and not charged. Duplicate symbols are answered once. Indicative,
    not advice.`,
  input: {
    query: signalsQuery,
  },
  output: signalsOutput,
  example: {
    query: { symbols: 'BTC,NOPE' },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ query }, ctx) => getSignals(ctx.deps.market, query, ctx.deps.clock()),
})
