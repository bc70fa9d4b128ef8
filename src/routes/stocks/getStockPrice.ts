import { STOCK_STATE_ERRORS } from '../../market/readErrors.js'
import { getStockPrice, stockPriceOutput, stockPriceQuery } from '../../market/stocks/getStockPrice.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const getStockPriceRoute = defineRoute({
  id: 'getStockPrice',
  method: 'GET',
  path: '/v1/stocks/price',
  priceUsd: PRICES.getStockPrice,
  errors: ['unknown_stock', ...STOCK_STATE_ERRORS],
  tier: 'data',
  summary: 'Stock fill quote without calldata',
  description: prose`
    Fill, price per share, premium against the feed and the chosen pool for buying (amount = USDC to spend,
    at most 6 decimals) or selling (amount = tokens, at most 8 decimals) a tokenized stock; no calldata
    (POST /v1/tx/stocks builds the trade). Quoted with Uniswap v3 QuoterV2 in every fee tier’s stock/USDC
    pool in one multicall; the pool paying out most is chosen, and amountOut is exactly what it pays for
    amountIn at this block. pricePerShare is USDC per token; vsFeedPct compares it with the feed (positive
    on a buy = premium, negative on a sell = discount); a stale feed still quotes, with its age. Errors,
    none charged: 404 \`unknown_stock\`; 409 \`stock_not_minted\` for a registered ticker without supply (no
    pool), \`stock_paused\`, \`stock_not_registered\`, \`stock_no_pool\` (no pool fills the amount).`,
  input: { query: stockPriceQuery },
  output: stockPriceOutput,
  example: {
    query: { sym: 'AAPLc', side: 'buy', amount: '1000' },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ query }, ctx) => getStockPrice(ctx.deps.chain, query, ctx.deps.clock()),
})
