import { z } from 'zod'
import { symbol, unixSeconds } from '../../chain/fields.js'
import { getTaScan } from '../../market/getTaScan.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { symbolList } from '../shared/fields.js'
import { TA_DISCLAIMER_TEXT } from '../shared/taFields.js'

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

export const getTaScanRoute = defineRoute({
  id: 'getTaScan',
  method: 'GET',
  path: '/v1/ta/scan',
  priceUsd: PRICES.getTaScan,
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
  output: z.object({
    scans: z.array(
      z.object({
        symbol,
        source: z
          .string()
          .describe('Candle source: exchange product (BTC-USD) or oracle symbol (FX.EUR/USD)'),
        status: z
          .enum(['ok', 'insufficient_history'])
          .describe('insufficient_history when any frame is null'),
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
  }),
  example: {
    query: { symbols: 'BTC,ETH,NOPE' },
    // Devnet output of GET /v1/ta/scan?symbols=BTC,ETH,NOPE.
    output: {
      scans: [
        {
          symbol: 'BTC',
          source: 'BTC-USD',
          status: 'ok',
          frames: {
            '1m': {
              buyPct: 28.9792,
              sellPct: 71.0208,
              dominance: 'sell',
              basis: 'volume',
              bars: 60,
              lastBarTime: 1795454880,
            },
            '5m': {
              buyPct: 51.125,
              sellPct: 48.875,
              dominance: 'even',
              basis: 'volume',
              bars: 60,
              lastBarTime: 1795454400,
            },
            '15m': {
              buyPct: 54.0666,
              sellPct: 45.9334,
              dominance: 'even',
              basis: 'volume',
              bars: 60,
              lastBarTime: 1795453200,
            },
          },
          lean: 'sell',
        },
        {
          symbol: 'ETH',
          source: 'ETH-USD',
          status: 'ok',
          frames: {
            '1m': {
              buyPct: 61.4534,
              sellPct: 38.5466,
              dominance: 'buy',
              basis: 'volume',
              bars: 60,
              lastBarTime: 1795454880,
            },
            '5m': {
              buyPct: 62.496,
              sellPct: 37.504,
              dominance: 'buy',
              basis: 'volume',
              bars: 60,
              lastBarTime: 1795454400,
            },
            '15m': {
              buyPct: 53.7495,
              sellPct: 46.2505,
              dominance: 'even',
              basis: 'volume',
              bars: 60,
              lastBarTime: 1795453200,
            },
          },
          lean: 'buy',
        },
      ],
      unknown: ['NOPE'],
      disclaimer: 'Indicative, not advice; experimental, no established edge',
    },
  },
  handler: async ({ query }, ctx) => getTaScan(ctx.deps.market, query.symbols, ctx.deps.clock()),
})
