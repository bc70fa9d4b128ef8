import { buildRiskCancel, riskCancelAction, riskCancelBody } from '../../../builders/risk/riskCancel.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'
import { exampleOutput } from '../../shared/exampleOutput.js'
import { COMMON } from '../../shared/riskFields.js'

export const buildRiskCancelRoute = builder({
  id: 'buildRiskCancel',
  path: '/v1/tx/risk/cancel',
  priceUsd: PRICES.buildRiskCancel,
  errors: ['order_not_found'],
  summary: 'Cancel a resting limit or stop order',
  description: prose`
    gTrade v10 \`cancelOpenOrder(index)\`: cancels the resting LIMIT/STOP order \`index\` of \`owner\` (GET
    /v1/pending-orders/{address}); its whole collateral returns to owner in the same transaction
    (\`refund\`). Errors: 422 \`order_not_found\` (index: no resting order of owner there, including a
    filled trade — close that with /v1/tx/risk/close). ${COMMON}`,
  body: riskCancelBody,
  action: riskCancelAction,
  example: {
    body: { index: 2, owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildRiskCancel(ctx.deps.builders, body),
})
