import { z } from 'zod'
import { getPrices, pricesOutput } from '../../market/prices/getPrices.js'
import { symbolList } from '../../market/queryFields.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const getPricesRoute = defineRoute({
  id: 'getPrices',
  method: 'GET',
  path: '/v1/prices',
  priceUsd: PRICES.getPrices,
  errors: ['unknown_symbol', 'upstream_not_found'],
  tier: 'data',
  summary: 'Spot and perp prices for up to 30 symbols',
  description: prose`
    Per symbol, two labeled venue legs: \`spot\` (the exchange’s SYM-USD product: usd, change24h in percent,
    volume24h in base-asset units, high24h, low24h) and \`perp\` (gTrade: pairIndex, index = the oracle
    price used for liquidations, mark = what a minimal market long fills at, index plus half the pair
    spread). A leg is null when that venue does not list the symbol (or, for perp, has no oracle price right
    now); perp legs cover symbols the exchange does not carry. A ticker neither venue can price (no exchange
    product, no perp pair with an oracle feed) is listed in \`unknown\` instead of \`prices\`, and when
    every requested ticker is unknown the call is refused with 400 \`unknown_symbol\` (field \`symbols\`)
    and not charged. Duplicate symbols are answered once.`,
  input: { query: z.object({ symbols: symbolList(30) }) },
  output: pricesOutput,
  example: {
    query: { symbols: 'BTC,ETH' },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ query }, ctx) => ({
    asOf: Math.floor(ctx.deps.clock() / 1000),
    ...(await getPrices(ctx.deps.market, query.symbols)),
  }),
})
