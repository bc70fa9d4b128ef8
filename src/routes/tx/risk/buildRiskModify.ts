import { buildRiskModify, riskModifyAction, riskModifyBody } from '../../../builders/risk/riskModify.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'

import { exampleOutput } from '../../shared/exampleOutput.js'
import { COMMON, LEVERAGE_ERRORS } from '../../shared/riskFields.js'

export const buildRiskModifyRoute = builder({
  id: 'buildRiskModify',
  path: '/v1/tx/risk/modify',
  priceUsd: PRICES.buildRiskModify,
  errors: [
    'unknown_pair',
    'trade_not_found',
    'resting_order',
    'not_a_resting_order',
    'order_pending',
    'leverage_unchanged',
    'decrease_too_large',
    'wrong_side',
    ...LEVERAGE_ERRORS,
    'insufficient_balance',
  ],
  summary: 'Modify a trade (leverage, size, TP, SL) or a resting order (trigger, TP, SL)',
  description: prose`
    Filled trade: \`tp\` / \`sl\` → \`updateTp\` / \`updateSl\` (synchronous; 0 removes), then at most one
    queued market change the oracle keeper fills: \`leverage\` → \`updateLeverage(index, leverage x1e3)\`,
    which keeps the position size, so a decrease pulls a top-up of collateral × old / new − collateral (the
    exact USDC approve prepended when short) and an increase returns collateral; or \`sizeDeltaUsdc\` > 0 →
    \`increasePositionSize(index, collateral, the trade’s leverage, expectedPrice, maxSlippageP)\` (approve
    prepended), < 0 → \`decreasePositionSize(index, collateral, 0, expectedPrice)\` (collateral out at
    constant leverage, with its share of the PnL). Resting LIMIT/STOP order: \`triggerPrice\`, \`tp\`,
    \`sl\` → one \`updateOpenOrder(index, trigger, tp, sl, maxSlippageP)\`, unchanged parts carried over.

    Action: \`changes\` in step order, \`collateralDelta\` (signed atomic USDC of the trade’s collateral as
    asked: + pulled from owner, − released), \`newLeverage\`.

    Errors: 400 \`invalid_input\` (none of leverage/sizeDeltaUsdc/tp/sl/triggerPrice; both leverage and
    sizeDeltaUsdc; sizeDeltaUsdc without expectedPrice); 422 \`trade_not_found\` (index), \`wrong_side\` (tp
    or sl: a long’s TP must be above and SL below the trade’s entry — its openPrice, or the new trigger of a
    resting order — mirrored for a short), \`leverage_above_max\` / \`leverage_below_min\` /
    \`leverage_unchanged\` (leverage), \`resting_order\` (leverage or sizeDeltaUsdc on a resting order),
    \`not_a_resting_order\` (triggerPrice on a filled trade), \`order_pending\` (index: a market order on
    this trade is still queued), \`decrease_too_large\` (sizeDeltaUsdc: at or beyond the collateral; close
    instead), \`insufficient_balance\` (leverage or sizeDeltaUsdc). ${COMMON}`,
  body: riskModifyBody,
  action: riskModifyAction,
  example: {
    body: { index: 1, owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', tp: 5000, sl: 3000 },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildRiskModify(ctx.deps.builders, body),
})
