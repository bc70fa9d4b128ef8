import { aaveSupplyAction, aaveSupplyBody, buildAaveSupply } from '../../../../builders/earn/aaveSupply.js'
import { prose } from '../../../../prose.js'
import { PRICES } from '../../../prices.js'
import { builder } from '../../../shared/builder.js'
import { exampleOutput } from '../../../shared/exampleOutput.js'

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
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildAaveSupply(ctx.deps.builders, ctx.deps.lending, body),
})
