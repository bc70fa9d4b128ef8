import { unitsBody } from '../../../builders/fixedRepay.js'
import { buildFixedWithdraw, fixedWithdrawAction } from '../../../builders/fixedWithdraw.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'
import { hex } from '../../shared/builderExample.js'
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
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
          data: hex`
            0xa6db1750
            0000000000000000000000000000000000000000000000000000000000000080
            0000000000000000000000000000000000000000000000000000000005f5e100
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            0000000000000000000000000000000000000000000000000000000000002105
            000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a
            000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda02913
            0000000000000000000000000000000000000000000000000000000000000100
            000000000000000000000000000000000000000000000000000000006efaa500
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
          description: 'Withdraw 100 USDC of repaid fixed-rate credit',
        },
      ],
      action: {
        type: 'fixedWithdraw',
        marketId: '0x4183be0a905e735a704a587d73cff76e5af8b9ff3ca236bf61ded22b679cafec',
        units: '100000000',
        maturity: 1861920000,
        creditAfter: '900000000',
        withdrawableAfter: '300000000',
      },
    },
  },
  handler: (body, ctx) => buildFixedWithdraw(ctx.deps.builders, body),
})
