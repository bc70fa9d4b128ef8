import { loanBody } from '../../../builders/loan/loanPositionFields.js'
import {
  buildLoanWithdrawCollateral,
  loanWithdrawCollateralAction,
} from '../../../builders/loan/loanWithdrawCollateral.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'

import { exampleOutput } from '../../shared/exampleOutput.js'
import { EXAMPLE_MARKET, LOAN_COMMON, LOAN_ERRORS, UNHEALTHY } from '../../shared/loanFields.js'

export const buildLoanWithdrawCollateralRoute = builder({
  id: 'buildLoanWithdrawCollateral',
  path: '/v1/tx/loan/withdraw-collateral',
  priceUsd: PRICES.buildLoanWithdrawCollateral,
  errors: [...LOAN_ERRORS, 'exceeds_collateral', 'unhealthy_after'],
  summary: 'Withdraw collateral from an isolated market',
  description: prose`
    Morpho Blue withdrawCollateral(params, assets, onBehalf = owner, receiver = owner): \`assets\` is atomic
    collateral. More than the owner’s collateral is 422 \`exceeds_collateral\` naming \`assets\` (details
    \`collateral\`). ${UNHEALTHY} ${LOAN_COMMON}`,
  body: loanBody,
  action: loanWithdrawCollateralAction,
  example: {
    body: {
      marketId: EXAMPLE_MARKET,
      assets: '250000000000000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildLoanWithdrawCollateral(ctx.deps.builders, body),
})
