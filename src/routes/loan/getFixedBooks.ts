import { fixedBooksOutput, getFixedBooks } from '../../market/loan/getFixedBooks.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

/** The best level of one side of a fixed-rate book. */

export const getFixedBooksRoute = defineRoute({
  id: 'getFixedBooks',
  method: 'GET',
  path: '/v1/loan/fixed',
  priceUsd: PRICES.getFixedBooks,
  errors: [],
  tier: 'data',
  summary: 'Fixed-rate loan books',
  description: prose`
    Morpho Midnight fixed-rate, fixed-term books on Base: per market, marketId, loan token, collaterals
    (token, LLTV as a fraction, oracle), maturity (unix seconds), the implied APRs and the depth at the best
    level. Source: the Morpho API (/v0/midnight/books, every page), cached 10 s; every market is re-derived
    from its parameters (MarketUtils.toId) and read back from Midnight onchain (toMarket), and a book that
    does not match is left out. One unit repays 1 loan token at maturity; \`price\` is what a unit costs
    now. borrowApr is the rate a borrower locks by selling units into the best (highest) bid, bids being
    lender-makers; lendApr is the rate a lender locks by buying units from the best (lowest) ask, asks being
    borrower-makers. APR = (1/price − 1) × 31,536,000 / (maturity − asOf), a simple annual fraction (0.05 =
    5 %), at the book price before Midnight’s settlement fee. borrowDepth/lendDepth give the best level:
    tick, price, units (atomic loan token repaid at maturity), assets (atomic loan token the maker side pays
    or receives now) and the number of offers. An empty side has a null APR and a null depth (never 0).
    Matured markets are left out. loanTokenDecimals is null when the token does not answer decimals().`,
  input: {},
  output: fixedBooksOutput,
  example: {
    output: exampleOutput(import.meta.url),
  },
  handler: async (_input, ctx) =>
    getFixedBooks(ctx.deps.chain, ctx.deps.market, ctx.deps.clock(), ctx.logger),
})
