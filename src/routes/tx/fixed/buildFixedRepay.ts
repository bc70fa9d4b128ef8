import { buildFixedRepay, fixedRepayAction, unitsBody } from '../../../builders/fixedRepay.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'
import { hex } from '../../shared/builderExample.js'
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
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: hex`
            0x095ea7b3
            000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a
            0000000000000000000000000000000000000000000000000000000005f5e100`,
          value: '0',
          description: 'Approve 100 USDC to Morpho Midnight',
        },
        {
          to: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
          data: hex`
            0x6b210f9e
            00000000000000000000000000000000000000000000000000000000000000a0
            0000000000000000000000000000000000000000000000000000000005f5e100
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            0000000000000000000000000000000000000000000000000000000000000000
            00000000000000000000000000000000000000000000000000000000000002c0
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
            000000000000000000000000de7e000000000000000000000000000000000021
            0000000000000000000000000000000000000000000000000000000000000000`,
          value: '0',
          description: 'Repay 100 USDC of fixed-rate debt',
        },
      ],
      action: {
        type: 'fixedRepay',
        marketId: '0xf2e40d3e419a0b8ae1cb50e59951890fc1bfe23bbdb69c1af778b5c957c7fc16',
        units: '100000000',
        maturity: 1893456000,
        debtAfter: '900000000',
      },
    },
  },
  handler: (body, ctx) => buildFixedRepay(ctx.deps.builders, body),
})
