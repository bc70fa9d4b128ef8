import { loanBody } from '../../../builders/loan/loanPositionFields.js'
import {
  buildLoanSupplyCollateral,
  loanSupplyCollateralAction,
} from '../../../builders/loan/loanSupplyCollateral.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'

import { exampleOutput } from '../../shared/exampleOutput.js'
import { EXAMPLE_MARKET, LOAN_COMMON, LOAN_ERRORS } from '../../shared/loanFields.js'

export const buildLoanSupplyCollateralRoute = builder({
  id: 'buildLoanSupplyCollateral',
  path: '/v1/tx/loan/supply-collateral',
  priceUsd: PRICES.buildLoanSupplyCollateral,
  errors: [...LOAN_ERRORS, 'insufficient_balance'],
  summary: 'Supply collateral to an isolated market',
  description: prose`
    Morpho Blue supplyCollateral(params, assets, onBehalf = owner, data = ""): \`assets\` is atomic
    collateral. Approve of exactly \`assets\` of the collateral token to Morpho prepended when the allowance
    is short; a balance below \`assets\` is 422 insufficient_balance. ${LOAN_COMMON}`,
  body: loanBody,
  action: loanSupplyCollateralAction,
  example: {
    body: {
      marketId: EXAMPLE_MARKET,
      assets: '1000000000000000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildLoanSupplyCollateral(ctx.deps.builders, body),
})
