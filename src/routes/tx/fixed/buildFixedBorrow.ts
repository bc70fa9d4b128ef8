import { buildFixedBorrow, fixedBorrowAction, fixedBorrowBody } from '../../../builders/fixed/fixedBorrow.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'

import { exampleOutput } from '../../shared/exampleOutput.js'
import { BORROW_MARKET, EXAMPLE_OWNER, TAKE, TAKE_ERRORS } from '../../shared/fixedFields.js'

export const buildFixedBorrowRoute = builder({
  id: 'buildFixedBorrow',
  path: '/v1/tx/fixed/borrow',
  priceUsd: PRICES.buildFixedBorrow,
  errors: [...TAKE_ERRORS, 'unknown_collateral', 'unhealthy_after', 'insufficient_balance'],
  summary: 'Borrow at a fixed rate (walk the bid book)',
  description: prose`
    Borrows \`assets\` of loan token now by selling units to the bid book (lender-makers): the owner owes
    \`units\` at maturity. With \`collateral\`, its approve (when short) and supplyCollateral are prepended.
    Health is read live: when the debt after the fills would exceed Σ collateral × oracle price / 1e36 ×
    LLTV (collateral supplied in this bundle included), 422 \`unhealthy_after\` naming \`collateral\`,
    details \`debtAfter\`, \`maxDebtAfter\`. An unknown \`collateral.token\` is 422 \`unknown_collateral\`;
    a balance short of \`collateral.assets\` is 422 insufficient_balance. Selling units first cancels credit
    the owner has in the market, then adds debt. ${TAKE}`,
  body: fixedBorrowBody,
  action: fixedBorrowAction,
  example: {
    body: { marketId: BORROW_MARKET, assets: '100000000', owner: EXAMPLE_OWNER, slippageBps: 50 },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildFixedBorrow(ctx.deps.builders, ctx.deps.market.midnight, body),
})
