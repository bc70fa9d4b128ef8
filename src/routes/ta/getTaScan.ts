import { z } from 'zod'
import { symbolList } from '../../market/queryFields.js'
import { getTaScan, taScanOutput } from '../../market/ta/getTaScan.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const getTaScanRoute = defineRoute({
  id: 'getTaScan',
  method: 'GET',
  path: '/v1/ta/scan',
  priceUsd: PRICES.getTaScan,
  errors: ['unknown_symbol', 'upstream_not_found'],
  tier: 'alpha',
  summary: 'Buy/sell dominance across 1m, 5m and 15m (experimental)',
  description: prose`
    For up to 8 symbols, buy versus sell dominance on the 1m, 5m and 15m frames and one lean across them.
    Experimental, with no established edge: indicative, not advice.

    Bars: per symbol and frame, the last 60 whole bars (the window ends at the start of the current bar),
    all read concurrently from the exchange product SYM-USD when listed, else the oracle history (Pyth
    Benchmarks, no volume) of the symbol’s USD feed.

    Dominance per frame: a bar is up when close > open, down when close < open, a doji counts half each.
    Each bar weighs its volume when any bar of the frame has volume above 0 (\`basis: volume\`), else 1
    (\`basis: count\`, the oracle). buyPct = 100 × weight of up bars (+ half the dojis) ÷ total weight;
    sellPct = 100 − buyPct (both to 4 decimals). dominance: buy when buyPct ≥ 55, sell when ≤ 45, else even.

    A frame with fewer than 10 bars is null (not a made-up share) and the symbol’s status is
    insufficient_history. \`lean\`: the plain mean of the frames’ buyPct (each frame weighs the same: the
    frames cover the same trades), read with the same 55/45 thresholds; over the frames that have a read,
    null when none has.

    Tickers without a USD product or feed are listed in \`unknown\` and the rest answered; when all are
    unknown, 400 \`unknown_symbol\` (field \`symbols\`), not charged; when no known symbol has a bar at all,
    502, not charged.`,
  input: { query: z.object({ symbols: symbolList(8) }) },
  output: taScanOutput,
  example: {
    query: { symbols: 'BTC,ETH,NOPE' },
    // Devnet output of GET /v1/ta/scan?symbols=BTC,ETH,NOPE.
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ query }, ctx) => getTaScan(ctx.deps.market, query.symbols, ctx.deps.clock()),
})
