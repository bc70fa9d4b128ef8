import { buildBurn, burnAction, burnBody } from '../../builders/burn.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { builder } from '../shared/builder.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const buildBurnRoute = builder({
  id: 'buildBurn',
  path: '/v1/tx/burn',
  priceUsd: PRICES.buildBurn,
  errors: ['owner_is_burn_address', 'insufficient_balance', 'util_not_deployed'],
  summary: 'Burn UTIL (transfer to the dead address)',
  description: prose`
    One step: UTIL.transfer(0x…dEaD, amount). UTIL has no burn function and its totalSupply never changes: a
    burn moves tokens to the dead address, so what it reduces is the circulating supply, totalSupply −
    balanceOf(0x…dEaD). \`action.supplyAfter\` is that circulating supply once this burn is mined (as read
    at the quote; other burns mined first lower it further). Holding less than \`amount\` is 422
    insufficient_balance. On a network profile without UTIL (no UTIL_TOKEN configured) the answer is 501
    util_not_deployed, not charged. Pass the mined hash as burnTxHash to the prop desk.`,
  body: burnBody,
  action: burnAction,
  example: {
    body: { amount: '250000000000000000000000', owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildBurn(ctx.deps.builders, ctx.deps.config.utilToken, body),
})
