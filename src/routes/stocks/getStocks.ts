import { getStocks, stocksOutput } from '../../market/getStocks.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'

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
    output: {
      stocks: [
        {
          ticker: 'AAPLc',
          token: '0xb200000000000000000000C2e324d24d7eEcd1fb',
          feed: '0x787f13dEa48Db0897CbCDD985de77809D837F988',
          usd: 231.42,
          feedAgeSec: 42,
          multiplier: 1.0042,
          minted: true,
          pool: '0x97F35d1E92795327614BE000cd18cba1Be2c1931',
          tradable: true,
          notTradableReason: null,
        },
        {
          ticker: 'SPCXc',
          token: '0xb2000000000000000000007b9fcbd005511aCBd5',
          feed: '0x6A634B235903C4ad6376892180d6fF8612e3Fa68',
          usd: 201.37,
          feedAgeSec: 42,
          multiplier: 1,
          minted: false,
          pool: null,
          tradable: false,
          notTradableReason: 'not_minted',
        },
      ],
    },
  },
  handler: async (_input, ctx) => ({ stocks: await getStocks(ctx.deps.chain, ctx.deps.clock()) }),
})
