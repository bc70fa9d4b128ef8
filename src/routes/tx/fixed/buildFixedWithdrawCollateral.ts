import { fixedCollateralBody } from '../../../builders/fixedSupplyCollateral.js'
import {
  buildFixedWithdrawCollateral,
  fixedWithdrawCollateralAction,
} from '../../../builders/fixedWithdrawCollateral.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'
import { hex } from '../../shared/builderExample.js'
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
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
          data: hex`
            0xa121e2a9
            00000000000000000000000000000000000000000000000000000000000000a0
            0000000000000000000000000000000000000000000000000000000000000000
            000000000000000000000000000000000000000000000000016345785d8a0000
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            0000000000000000000000000000000000000000000000000000000000002105
            000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a
            000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda02913
            0000000000000000000000000000000000000000000000000000000000000100
            0000000000000000000000000000000000000000000000000000000070dbd880
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000002
            0000000000000000000000004200000000000000000000000000000000000006
            0000000000000000000000000000000000000000000000000bef55718ad60000
            0000000000000000000000000000000000000000000000000429d069189e0000
            000000000000000000000000de7e000000000000000000000000000000000020
            000000000000000000000000cbb7c0000ab88b473b1f5afd9ef808440eed33bf
            0000000000000000000000000000000000000000000000000bef55718ad60000
            0000000000000000000000000000000000000000000000000429d069189e0000
            000000000000000000000000de7e000000000000000000000000000000000021`,
          value: '0',
          description: 'Withdraw 0.1 WETH of collateral',
        },
      ],
      action: {
        type: 'fixedWithdrawCollateral',
        marketId: '0xf2e40d3e419a0b8ae1cb50e59951890fc1bfe23bbdb69c1af778b5c957c7fc16',
        collateralToken: '0x4200000000000000000000000000000000000006',
        assets: '100000000000000000',
        collateralAfter: '900000000000000000',
        debt: '1000000000',
        maxDebtAfter: '2387160842',
      },
    },
  },
  handler: (body, ctx) => buildFixedWithdrawCollateral(ctx.deps.builders, body),
})
