import { buildRiskCancel, riskCancelAction, riskCancelBody } from '../../../builders/riskCancel.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'
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
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: '0x858863330000000000000000000000000000000000000000000000000000000000000002',
          value: '0',
          description: 'Cancel resting order 2; its 250 USDC returns',
        },
      ],
      action: {
        type: 'riskCancel',
        index: 2,
        pairIndex: 1,
        orderType: 'limit',
        triggerPrice: 875,
        refund: '250000000',
      },
    },
  },
  handler: (body, ctx) => buildRiskCancel(ctx.deps.builders, body),
})
