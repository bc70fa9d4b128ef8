import { z } from 'zod'
import { address, atomicAmount, humanAmount, side, symbol } from '../../chain/fields.js'
import { getStockPrice } from '../../market/getStockPrice.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'

export const getStockPriceRoute = defineRoute({
  id: 'getStockPrice',
  method: 'GET',
  path: '/v1/stocks/price',
  priceUsd: PRICES.getStockPrice,
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
  input: { query: z.object({ sym: symbol, side, amount: humanAmount }) },
  output: z.object({
    sym: z.string(),
    side,
    amountIn: atomicAmount.describe('USDC (6 dp) on a buy, stock tokens (8 dp) on a sell'),
    amountOut: atomicAmount.describe('Stock tokens on a buy, USDC on a sell'),
    pricePerShare: z.number().describe('USDC per token of this fill'),
    feedUsd: z.number().nullable(),
    feedAgeSec: z.number().int().nullable(),
    vsFeedPct: z.number().nullable(),
    multiplier: z.number().nullable(),
    pool: z.object({
      address,
      fee: z.number().int(),
      usdc: z.number().describe('USDC reserve'),
      shares: z.number().describe('Stock token reserve'),
    }),
  }),
  example: {
    query: { sym: 'AAPLc', side: 'buy', amount: '1000' },
    output: {
      sym: 'AAPLc',
      side: 'buy',
      amountIn: '1000000000',
      amountOut: '430710000',
      pricePerShare: 232.17,
      feedUsd: 231.42,
      feedAgeSec: 42,
      vsFeedPct: 0.32,
      multiplier: 1.0042,
      pool: {
        address: '0x97F35d1E92795327614BE000cd18cba1Be2c1931',
        fee: 3000,
        usdc: 250000,
        shares: 1075.6,
      },
    },
  },
  handler: async ({ query }, ctx) => getStockPrice(ctx.deps.chain, query, ctx.deps.clock()),
})
