import { aaveSupplyAction, aaveSupplyBody, buildAaveSupply } from '../../../../builders/aaveSupply.js'
import { prose } from '../../../../prose.js'
import { PRICES } from '../../../prices.js'
import { builder } from '../../../shared/builder.js'
import { hex } from '../../../shared/builderExample.js'

export const buildAaveSupplyRoute = builder({
  id: 'buildAaveSupply',
  path: '/v1/tx/earn/aave/supply',
  priceUsd: PRICES.buildAaveSupply,
  errors: ['insufficient_balance'],
  summary: 'Supply to the pool lender',
  description: prose`
    Aave v3 Pool.supply(asset, amount, onBehalfOf = owner, referralCode 0); an exact approve of \`amount\`
    to the Pool is prepended when the allowance is short. \`asset\` must be one of the Aave reserves GET
    /v1/earn/vaults lists (else 422 unlisted_target); holding less than \`amount\` is 422
    insufficient_balance. The simulation reports the asset and the aToken.`,
  body: aaveSupplyBody,
  action: aaveSupplyAction,
  example: {
    body: {
      asset: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      amount: '1000000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: hex`
            0x095ea7b3
            000000000000000000000000a238dd80c259a72e81d7e4664a9801593f98d1c5
            000000000000000000000000000000000000000000000000000000003b9aca00`,
          value: '0',
          description: 'Approve 1000 USDC to the Aave v3 Pool',
        },
        {
          to: '0xA238Dd80C259a72e81d7e4664a9801593F98d1c5',
          data: hex`
            0x617ba037
            000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda02913
            000000000000000000000000000000000000000000000000000000003b9aca00
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            0000000000000000000000000000000000000000000000000000000000000000`,
          value: '0',
          description: 'Supply 1000 USDC to Aave v3 (receipt: Aave Base USDC)',
        },
      ],
      action: {
        type: 'aaveSupply',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        amount: '1000000000',
        aToken: '0x4e65fE4DbA92790696d040ac24Aa414708F5c0AB',
        expectedATokenBalanceAfter: '1000000000',
      },
    },
  },
  handler: (body, ctx) => buildAaveSupply(ctx.deps.builders, ctx.deps.lending, body),
})
