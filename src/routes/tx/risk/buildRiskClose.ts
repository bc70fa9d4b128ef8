import { buildRiskClose, riskCloseAction, riskCloseBody } from '../../../builders/riskClose.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'
import { hex } from '../../shared/builderExample.js'
import { COMMON } from '../../shared/riskFields.js'

export const buildRiskCloseRoute = builder({
  id: 'buildRiskClose',
  path: '/v1/tx/risk/close',
  priceUsd: PRICES.buildRiskClose,
  errors: ['unknown_pair', 'trade_not_found', 'resting_order', 'close_pending'],
  summary: 'Market-close an open leveraged trade',
  description: prose`
    gTrade v10 \`closeTradeMarket(index, expectedPrice x1e10)\`: queues a market close that the venue’s
    oracle keeper fills asynchronously; the venue guards the fill with the trade’s own maxSlippageP (set at
    open) around \`expectedPrice\`, so the body takes no slippage of its own. \`owner\` is required here
    (the spec lists index and expectedPrice only): the trade is read from the diamond (\`getTrade(owner,
    index)\`) before calldata is returned, and the bundle is simulated from owner.

    Action: the trade (pair, side, leverage, collateral, openPrice) and the estimate at \`expectedPrice\`:
    \`expectedExitPrice\` (expectedPrice moved half the pair spread against the trader), \`expectedPnl\`
    (signed atomic USDC, collateral × leverage × the price move, capped at +900 %), \`closingFee\` (the
    pair’s position-size fee), \`expectedPayout\` = collateral + pnl − closingFee (floored at 0) — before
    holding (borrowing/funding) fees, which the estimate omits.

    Errors: 422 \`trade_not_found\` (index: no open trade of owner there), \`resting_order\` (index: a
    LIMIT/STOP not filled; cancel it with /v1/tx/risk/cancel), \`close_pending\` (index: a market close is
    already queued). ${COMMON}`,
  body: riskCloseBody,
  action: riskCloseAction,
  example: {
    body: { index: 1, expectedPrice: 3500, owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: hex`
            0x36ce736b
            0000000000000000000000000000000000000000000000000000000000000001
            00000000000000000000000000000000000000000000000000001fd512913000`,
          value: '0',
          description: 'Market-close ETH/USD trade 1 near 3500',
        },
      ],
      action: {
        type: 'riskClose',
        index: 1,
        pairIndex: 1,
        pair: 'ETH/USD',
        long: true,
        leverage: 2,
        collateral: '249700000',
        openPrice: 3500.7,
        expectedExitPrice: 3499.3,
        expectedPnl: '-199720',
        closingFee: '299640',
        expectedPayout: '249200640',
      },
    },
  },
  handler: (body, ctx) => buildRiskClose(ctx.deps.builders, body),
})
