import { unitsBody } from '../../../builders/fixed/fixedRepay.js'
import { buildFixedWithdraw, fixedWithdrawAction } from '../../../builders/fixed/fixedWithdraw.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'

import { exampleOutput } from '../../shared/exampleOutput.js'
import { COMMON, EXAMPLE_OWNER, FIXED_ERRORS, LEND_MARKET } from '../../shared/fixedFields.js'

export const buildFixedWithdrawRoute = builder({
  id: 'buildFixedWithdraw',
  path: '/v1/tx/fixed/withdraw',
  priceUsd: PRICES.buildFixedWithdraw,
  errors: [...FIXED_ERRORS, 'exceeds_credit', 'not_matured', 'not_repaid'],
  summary: 'Withdraw repaid fixed-rate credit (lender)',
  description: prose`
    Midnight withdraw(market, units, onBehalf = owner, receiver = owner): a lender takes \`units\` of credit
    back 1:1 in loan token, out of what borrowers have repaid (Midnight’s market-wide \`withdrawable\`): at
    or after maturity, or earlier for units repaid early. More than the credit is 422 \`exceeds_credit\`;
    more than is repaid is 422 \`not_matured\` before maturity (exit early by selling the units on the bid
    book) or \`not_repaid\` after it; all name \`units\`, details \`credit\`, \`withdrawable\`,
    \`maturity\`, \`chainTime\` (the chain’s clock decides maturity). ${COMMON}`,
  body: unitsBody,
  action: fixedWithdrawAction,
  example: {
    body: { marketId: LEND_MARKET, units: '100000000', owner: EXAMPLE_OWNER },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildFixedWithdraw(ctx.deps.builders, body),
})
