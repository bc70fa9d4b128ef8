import { getLoanMarkets, loanMarketsOutput } from '../../market/getLoanMarkets.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'

export const getLoanMarketsRoute = defineRoute({
  id: 'getLoanMarkets',
  method: 'GET',
  path: '/v1/loan/markets',
  priceUsd: PRICES.getLoanMarkets,
  errors: [],
  tier: 'data',
  summary: 'Floating-rate isolated lending markets',
  description: prose`
    The Morpho Blue markets of the service’s address book, read live from Base at \`block\` (market states
    in one multicall, the IRM rates for those states in a second at the same block; cached 15 s, params 10
    min). Each \`marketId\` is re-derived as keccak256(abi.encode(params)) from the chain’s idToMarketParams
    and asserted: a market that does not match is logged and left out, never served. \`borrowApy\` =
    e^(borrowRateView(params, market) × 31,536,000) − 1: the IRM’s per-second rate (WAD) continuously
    compounded, as Morpho accrues it. \`supplyApy\` = borrowApy × utilization × (1 − fee); \`utilization\` =
    totalBorrowAssets ÷ totalSupplyAssets; \`lltv\` and \`fee\` as fractions (params.lltv is the 1e18-scaled
    original). Amounts are atomic units of the loan token as of the market’s last accrual; \`liquidity\` =
    totalSupplyAssets − totalBorrowAssets, what can be borrowed or withdrawn now. \`collateralAsset\` is
    null for a market without collateral.`,
  input: {},
  output: loanMarketsOutput,
  example: {
    output: {
      block: { number: 38712004, timestamp: 1795420800 },
      markets: [
        {
          marketId: '0x8793cf302b8ffd655ab97bd1c695dbd967807e8367a65cb2f4edaf1380ba1bda',
          params: {
            loanToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
            collateralToken: '0x4200000000000000000000000000000000000006',
            oracle: '0xFEa2D58cEfCb9fcb597723c6bAE66fFE4193aFE4',
            irm: '0x46415998764C29aB2a25CbeA6254146D50D22687',
            lltv: '860000000000000000',
          },
          loanAsset: { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', decimals: 6 },
          collateralAsset: {
            address: '0x4200000000000000000000000000000000000006',
            symbol: 'WETH',
            decimals: 18,
          },
          borrowApy: 0.0712,
          supplyApy: 0.0634,
          utilization: 0.8904,
          fee: 0,
          lltv: 0.86,
          totalSupplyAssets: '114000000000000',
          totalBorrowAssets: '101500000000000',
          liquidity: '12500000000000',
        },
      ],
    },
  },
  handler: async (_input, ctx) => getLoanMarkets(ctx.deps.lending),
})
