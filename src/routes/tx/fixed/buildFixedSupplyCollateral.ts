import {
  buildFixedSupplyCollateral,
  fixedCollateralBody,
  fixedSupplyCollateralAction,
} from '../../../builders/fixed/fixedSupplyCollateral.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'

import { exampleOutput } from '../../shared/exampleOutput.js'
import { BORROW_MARKET, COMMON, EXAMPLE_OWNER, FIXED_ERRORS } from '../../shared/fixedFields.js'

export const buildFixedSupplyCollateralRoute = builder({
  id: 'buildFixedSupplyCollateral',
  path: '/v1/tx/fixed/supply-collateral',
  priceUsd: PRICES.buildFixedSupplyCollateral,
  errors: [...FIXED_ERRORS, 'unknown_collateral', 'insufficient_balance'],
  summary: 'Supply collateral to a fixed-rate market',
  description: prose`
    Midnight supplyCollateral(market, index, assets, onBehalf = owner); the exact approve is prepended when
    short; a balance below \`assets\` is 422 insufficient_balance. ${COMMON}`,
  body: fixedCollateralBody,
  action: fixedSupplyCollateralAction,
  example: {
    body: {
      marketId: BORROW_MARKET,
      collateralToken: '0x4200000000000000000000000000000000000006',
      assets: '100000000000000000',
      owner: EXAMPLE_OWNER,
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildFixedSupplyCollateral(ctx.deps.builders, body),
})
