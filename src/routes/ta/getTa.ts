import { z } from 'zod'
import { symbol } from '../../chain/fields.js'
import { chartReadOutput, getChartRead } from '../../market/getChartRead.js'
import { granularity } from '../../market/queryFields.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const getTaRoute = defineRoute({
  id: 'getTa',
  method: 'GET',
  path: '/v1/ta/{sym}',
  priceUsd: PRICES.getTa,
  errors: ['unknown_instrument', 'upstream_not_found'],
  tier: 'alpha',
  summary: 'Single-symbol chart read (experimental)',
  description: prose`
    Chart read of \`sym\` at timeframe \`gran\` (60|300|900|3600|86400 seconds or 1m|5m|15m|1H|1D, default
    900). Experimental, with no established edge: indicative, not advice.

    Bars: the last 300 whole bars (the window ends at the start of the current bar), from the exchange
    product SYM-USD when listed (one call), else from the oracle history (Pyth Benchmarks, no volume) of the
    symbol’s USD feed at the same timeframe; bars are taken as they come, a time step above 1.5 bars counts
    in \`gaps\` and nothing is filled in. An unknown \`sym\` is a 404 \`unknown_instrument\` naming \`sym\`,
    not charged; a bad \`gran\` a 400 naming \`gran\`; a known symbol with no bar at all a 502, not charged.

    Warm-up: with fewer than 50 bars (the slow SMA) the answer is 200 with status \`insufficient_history\`,
    \`needed\` 50, \`got\` the bars, and every indicator field null.

    Indicators over closes: SMA(p) = mean of the last p closes; EMA seeded with its first input, k =
    2/(p+1). \`trend\`: slope = (SMA20 now − SMA20 five bars ago) / σ20 (population σ of the last 20 closes;
    0 when σ20 = 0): up above +0.25, down below −0.25, else flat. \`momentum.rsi\`: Wilder RSI(14) seeded
    with the mean gain and loss of the first 14 changes (100 when the average loss is 0, 50 when nothing
    moved); \`momentum.macdHistogram\`: MACD(12/26/9) line minus signal, the signal starting at close 26;
    \`momentum.state\` rising when histogram > 0 and RSI > 50, falling when histogram < 0 and RSI < 50, else
    neutral.

    Swings: zigzag turns of closes by at least 3 × the mean absolute close-to-close change of the window,
    confirmed at the first bar that far back from the extreme. \`support\`: the highest swing-low close
    below the last close; \`resistance\`: the lowest swing-high close above it (null when none).

    Markers (price = the close of the bar at t): golden-cross / death-cross when the sign of SMA20 − SMA50
    turns; macd-cross-up / -down when the histogram’s sign turns; higher-high / lower-high / higher-low /
    lower-low against the previous swing of its kind; bearish-divergence (a higher swing high with a lower
    RSI) and bullish-divergence (a lower swing low with a higher RSI); breakout / breakdown at the first
    close beyond a swing level after its confirmation (each level used once). Sorted by t, the latest 20.`,
  input: { params: z.object({ sym: symbol }), query: z.object({ gran: granularity }) },
  output: chartReadOutput,
  example: {
    params: { sym: 'BTC' },
    query: { gran: '1H' },
    // Devnet output of GET /v1/ta/BTC?gran=1H; markers cut to the last 3 of 20 to keep the challenge small.
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ params, query }, ctx) =>
    getChartRead(ctx.deps.market, params.sym, query.gran, ctx.deps.clock()),
})
