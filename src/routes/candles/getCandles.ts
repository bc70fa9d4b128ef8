import { candlesOutput, candlesQuery, getCandles } from '../../market/candles/getCandles.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const getCandlesRoute = defineRoute({
  id: 'getCandles',
  method: 'GET',
  path: '/v1/candles',
  priceUsd: PRICES.getCandles,
  errors: ['unknown_instrument', 'upstream_not_found'],
  tier: 'data',
  summary: 'OHLC candles for a product or symbol',
  description: prose`
    Pass \`product\` (an exchange product such as BTC-USD) or \`sym\` with \`cls\`. Bar size follows the
    window: hourly up to 7 days, six-hour up to 31 days, daily up to 350 days. \`series\` rows are
    [startSec, open, high, low, close], oldest first, whole bars only; \`high\`/\`low\` are the window
    extremes; \`candles\` is the number of rows. Source: the exchange when it lists the product (for cls
    Crypto, SYM-QUOTE), else the oracle’s price history for that class (productId is then the oracle symbol,
    e.g. FX.EUR/USD). Unknown instruments get 404 \`unknown_instrument\`.`,
  input: {
    query: candlesQuery,
  },
  output: candlesOutput,
  example: {
    query: { product: 'BTC-USD', days: '1' },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ query }, ctx) => getCandles(ctx.deps.market, query, ctx.deps.clock()),
})
