import { buildRiskClose, riskCloseAction, riskCloseBody } from '../../../builders/risk/riskClose.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'
import { exampleOutput } from '../../shared/exampleOutput.js'
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
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildRiskClose(ctx.deps.builders, body),
})
