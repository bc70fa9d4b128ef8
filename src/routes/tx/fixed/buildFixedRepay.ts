import { buildFixedRepay, fixedRepayAction, unitsBody } from '../../../builders/fixed/fixedRepay.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'

import { exampleOutput } from '../../shared/exampleOutput.js'
import { BORROW_MARKET, COMMON, EXAMPLE_OWNER, FIXED_ERRORS } from '../../shared/fixedFields.js'

export const buildFixedRepayRoute = builder({
  id: 'buildFixedRepay',
  path: '/v1/tx/fixed/repay',
  priceUsd: PRICES.buildFixedRepay,
  errors: [...FIXED_ERRORS, 'exceeds_debt', 'insufficient_balance'],
  summary: 'Repay a fixed-rate loan',
  description: prose`
    Midnight repay(market, units, onBehalf = owner, callback = 0, data = ""): pays \`units\` of loan token
    (1:1) against the owner’s debt, before or after maturity. The exact loan-token approve is prepended when
    short. More than the debt is 422 \`exceeds_debt\` naming \`units\` (details \`debt\`); a balance below
    \`units\` is 422 insufficient_balance. ${COMMON}`,
  body: unitsBody,
  action: fixedRepayAction,
  example: {
    body: { marketId: BORROW_MARKET, units: '100000000', owner: EXAMPLE_OWNER },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildFixedRepay(ctx.deps.builders, body),
})
