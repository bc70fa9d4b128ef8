import { fixedCollateralBody } from '../../../builders/fixed/fixedSupplyCollateral.js'
import {
  buildFixedWithdrawCollateral,
  fixedWithdrawCollateralAction,
} from '../../../builders/fixed/fixedWithdrawCollateral.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'

import { exampleOutput } from '../../shared/exampleOutput.js'
import { BORROW_MARKET, COMMON, EXAMPLE_OWNER, FIXED_ERRORS } from '../../shared/fixedFields.js'

export const buildFixedWithdrawCollateralRoute = builder({
  id: 'buildFixedWithdrawCollateral',
  path: '/v1/tx/fixed/withdraw-collateral',
  priceUsd: PRICES.buildFixedWithdrawCollateral,
  errors: [...FIXED_ERRORS, 'unknown_collateral', 'exceeds_collateral', 'unhealthy_after'],
  summary: 'Withdraw collateral from a fixed-rate market',
  description: prose`
    Midnight withdrawCollateral(market, index, assets, onBehalf = owner, receiver = owner). Refused before
    simulating: more than supplied is 422 \`exceeds_collateral\` (details \`collateral\`); leaving the debt
    above Σ collateral × price / 1e36 × LLTV is 422 \`unhealthy_after\` (details \`debt\`,
    \`maxDebtAfter\`); both name \`assets\`. ${COMMON}`,
  body: fixedCollateralBody,
  action: fixedWithdrawCollateralAction,
  example: {
    body: {
      marketId: BORROW_MARKET,
      collateralToken: '0x4200000000000000000000000000000000000006',
      assets: '100000000000000000',
      owner: EXAMPLE_OWNER,
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildFixedWithdrawCollateral(ctx.deps.builders, body),
})
