import { getLoanMarkets, loanMarketsOutput } from '../../market/loan/getLoanMarkets.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

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
    output: exampleOutput(import.meta.url),
  },
  handler: async (_input, ctx) => getLoanMarkets(ctx.deps.lending),
})
