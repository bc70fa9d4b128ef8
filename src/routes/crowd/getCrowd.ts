import { z } from 'zod'
import { crowdOutput, getCrowd } from '../../market/crowd/getCrowd.js'
import { symbolList } from '../../market/queryFields.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const getCrowdRoute = defineRoute({
  id: 'getCrowd',
  method: 'GET',
  path: '/v1/crowd',
  priceUsd: PRICES.getCrowd,
  errors: ['unknown_symbol', 'upstream_not_found'],
  tier: 'data',
  summary: 'Crowd positioning on the perp venue',
  description: prose`
    Per pair: long vs short split in percent and USD, the pair’s total, and bookSharePct (the pair’s share
    of the whole open book, \`totalBookUsd\`, over every listed pair whatever the filter). Source: the perp
    venue’s open interest as its backend serves it (GET /trading-variables/all: each collateral’s per-pair
    OI at open size, valued at the collateral’s USD price, summed over collaterals). Without \`symbols\`,
    every listed pair in pairIndex order; with them, the matching pairs in the order asked (BTC names
    BTC/USD; a pair can be named USD/JPY or USDJPY, a USD-based one also by its quote, JPY). Tickers no pair
    matches are listed in \`unknown\`; when none matches, 400 \`unknown_symbol\` (field \`symbols\`), not
    charged. Percentages are null for a pair with no open interest.`,
  input: { query: z.object({ symbols: symbolList(60).optional() }) },
  output: crowdOutput,
  example: {
    query: { symbols: 'BTC,ETH' },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ query }, ctx) => getCrowd(ctx.deps.market, query.symbols),
})
