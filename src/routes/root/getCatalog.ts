import { getMajors } from '../../market/getMajors.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { buildCatalog, catalogSchema } from '../shared/catalog.js'

export const getCatalogRoute = defineRoute({
  id: 'getCatalog',
  method: 'GET',
  path: '/v1',
  priceUsd: PRICES.getCatalog,
  errors: [],
  tier: 'free',
  summary: 'Full catalog of endpoints, with live prices of the majors',
  description: prose`
    Every endpoint with method, path, posted price, current price (posted times surge), tier, summary and
    parameters; the payment terms, the surge rule and multiplier, and links to the discovery documents. The
    \`prices\` block (live spot USD of BTC, ETH and SOL from the exchange) is omitted, never invented, when
    the exchange does not answer within 1.5 s.`,
  input: {},
  output: catalogSchema,
  handler: async (_input, ctx) =>
    buildCatalog(ctx.routes, ctx.deps.config, {
      surgeMultiplier: ctx.deps.surge.multiplier(),
      prices: await getMajors(ctx.deps.market),
    }),
})
