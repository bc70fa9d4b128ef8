import { fixedBooksOutput, getFixedBooks } from '../../market/getFixedBooks.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'

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
    output: {
      asOf: 1795420800,
      books: [
        {
          marketId: '0x1ee49f8168cda1129ff8b501decd41128abaff90c55a18ca3fbc3fc8d47d2d34',
          loanToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          loanTokenDecimals: 6,
          collaterals: [
            {
              token: '0x4200000000000000000000000000000000000006',
              lltv: 0.86,
              oracle: '0xFEa2D58cEfCb9fcb597723c6bAE66fFE4193aFE4',
            },
            {
              token: '0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf',
              lltv: 0.86,
              oracle: '0x663BECd10daE6C4A3Dcd89F1d76c1174199639B9',
            },
          ],
          maturity: 1797984000,
          borrowApr: 0.0701429748,
          lendApr: 0.0499680201,
          borrowDepth: {
            tick: 4408,
            price: 0.9943312,
            units: '50000000000',
            assets: '49716560000',
            offers: 1,
          },
          lendDepth: { tick: 4476, price: 0.9959551, units: '50000000000', assets: '49797755000', offers: 1 },
        },
      ],
    },
  },
  handler: async (_input, ctx) =>
    getFixedBooks(ctx.deps.chain, ctx.deps.market, ctx.deps.clock(), ctx.logger),
})
