import { buildLoanBorrow, loanBorrowAction } from '../../../builders/loan/loanBorrow.js'
import { loanBody } from '../../../builders/loan/loanPositionFields.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'

import { exampleOutput } from '../../shared/exampleOutput.js'
import { EXAMPLE_MARKET, LOAN_COMMON, LOAN_ERRORS, UNHEALTHY } from '../../shared/loanFields.js'

export const buildLoanBorrowRoute = builder({
  id: 'buildLoanBorrow',
  path: '/v1/tx/loan/borrow',
  priceUsd: PRICES.buildLoanBorrow,
  errors: [...LOAN_ERRORS, 'insufficient_liquidity', 'unhealthy_after'],
  summary: 'Borrow from an isolated market',
  description: prose`
    Morpho Blue borrow(params, assets, shares = 0, onBehalf = owner, receiver = owner): \`assets\` is atomic
    loan token, borrowed against the owner’s collateral in the market. \`shares\`: the borrow shares minted
    at the quote (Morpho rounds up; a later block mints slightly fewer as interest accrues). More than the
    market’s free liquidity is 422 \`insufficient_liquidity\` naming \`assets\` (details \`available\`).
    ${UNHEALTHY} ${LOAN_COMMON}`,
  body: loanBody,
  action: loanBorrowAction,
  example: {
    body: {
      marketId: EXAMPLE_MARKET,
      assets: '1500000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildLoanBorrow(ctx.deps.builders, body),
})
