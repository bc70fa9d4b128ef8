import { loanBody } from '../../../builders/loan/loanPositionFields.js'
import { buildLoanRepay, loanRepayAction } from '../../../builders/loan/loanRepay.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'

import { exampleOutput } from '../../shared/exampleOutput.js'
import { EXAMPLE_MARKET, LOAN_COMMON, LOAN_ERRORS } from '../../shared/loanFields.js'

export const buildLoanRepayRoute = builder({
  id: 'buildLoanRepay',
  path: '/v1/tx/loan/repay',
  priceUsd: PRICES.buildLoanRepay,
  errors: [...LOAN_ERRORS, 'nothing_to_repay', 'insufficient_balance'],
  summary: 'Repay an isolated-market loan',
  description: prose`
    Morpho Blue repay for \`owner\`; \`assets\` is atomic loan token. Below the debt (interest accrued to
    the latest block): repay(params, assets, 0, owner, "") repays exactly \`assets\` (\`mode\` "assets"). At
    or above it: repay(params, 0, borrowShares, owner, "") repays the whole debt by shares, so no interest
    dust is left (\`mode\` "shares"); it pulls the debt as accrued at inclusion, at most \`maxRepaid\` = the
    debt accrued to \`expiresAt\` (Morpho’s own accrual evaluated at that timestamp; exact while nobody else
    moves the market’s rate before inclusion), which may exceed \`assets\`. The approve of exactly
    \`maxRepaid\` of the loan token to Morpho is prepended when the allowance is short (a by-shares repay
    included earlier than \`expiresAt\` leaves the unpulled interest approved). A balance below
    \`maxRepaid\` is 422 insufficient_balance; no debt is 422 \`nothing_to_repay\` naming \`assets\`.
    \`shares\`: the borrow shares burned (by assets: at the quote, rounded down); \`debtBefore\`: the debt
    accrued to \`accruedTo\`. ${LOAN_COMMON}`,
  body: loanBody,
  action: loanRepayAction,
  example: {
    body: {
      marketId: EXAMPLE_MARKET,
      assets: '500000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildLoanRepay(ctx.deps.builders, body),
})
