import { getStocks, stocksOutput } from '../../market/stocks/getStocks.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const getStocksRoute = defineRoute({
  id: 'getStocks',
  method: 'GET',
  path: '/v1/stocks',
  priceUsd: PRICES.getStocks,
  errors: [],
  tier: 'data',
  summary: 'Tokenized stock catalog',
  description: prose`
    Thirteen registered tickers, each ending in a lowercase c: token address, oracle feed, live USD price
    (the feed’s answer: one token = underlying x multiplier), feed age in seconds (from the feed’s own
    updatedAt), share multiplier, minted, the deepest Uniswap v3 USDC pool, and tradable, read live from the
    chain in one multicall. Tokens have 8 decimals and track one share times multiplier(). tradable =
    minted, registered with the onchain oracle registry, not paused, a USDC pool with liquidity, and a feed
    answer within its 24 h heartbeat; otherwise \`notTradableReason\` says which check failed first:
    not_minted, not_registered, paused, no_pool, feed_unavailable, feed_stale. Only minted tickers have a
    pool: branch on minted and tradable.`,
  input: {},
  output: stocksOutput,
  example: {
    output: exampleOutput(import.meta.url),
  },
  handler: async (_input, ctx) => ({ stocks: await getStocks(ctx.deps.chain, ctx.deps.clock()) }),
})
