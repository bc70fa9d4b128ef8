import { buildRiskOpen, riskOpenAction, riskOpenBody } from '../../../builders/risk/riskOpen.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'

import { exampleOutput } from '../../shared/exampleOutput.js'
import { COMMON, LEVERAGE_ERRORS } from '../../shared/riskFields.js'

export const buildRiskOpenRoute = builder({
  id: 'buildRiskOpen',
  path: '/v1/tx/risk/open',
  priceUsd: PRICES.buildRiskOpen,
  errors: ['unknown_pair', ...LEVERAGE_ERRORS, 'position_below_minimum', 'insufficient_balance'],
  summary: 'Open a leveraged trade on the perp venue',
  description: prose`
    gTrade v10 \`openTrade(Trade, maxSlippageP, referrer = 0)\` with the 15-field v10 Trade (user = owner,
    index 0, collateralIndex 1 = USDC, isOpen, positionSizeToken 0). Human inputs, venue scaling applied
    here: leverage x1e3, prices x1e10, USDC 6 dp, slippagePct x1e3. MARKET (tradeType 0) queues an order the
    venue’s oracle keeper fills asynchronously near \`markPrice\` (the Trade’s openPrice, the slippage
    reference); LIMIT (1) and STOP (2) rest at \`triggerPrice\` until the price crosses it. The exact USDC
    approve to the diamond is prepended when the live allowance is short.

    Read live in one multicall: the pair (\`pairs\`), its min/max leverage, minimum position size, fee
    (\`pairTotalPositionSizeFeeP\`), spread (\`pairSpreadP\`) and liquidation params, the owner’s USDC and
    allowance; then the venue’s own \`getTradeLiquidationPrice\` for the trade as expected to fill.

    Action: \`expectedOpenPrice\` (MARKET: markPrice moved half the pair spread against the trader;
    LIMIT/STOP: the trigger), \`openingFee\` (atomic USDC, collateral × leverage × the pair’s position-size
    fee, deducted from the collateral at the fill), \`collateralAfterFee\`, \`liquidationPrice\` (the
    venue’s, for that collateral and leverage at expectedOpenPrice), \`positionSize\`, \`maxSlippageP\` as
    encoded.

    Errors: 400 \`invalid_input\` naming \`triggerPrice\` (missing for LIMIT/STOP, present for MARKET, or on
    the wrong side of markPrice: a LIMIT long / STOP short must be below it, a STOP long / LIMIT short
    above), \`tp\` or \`sl\` (a long’s TP must be above and SL below the entry — markPrice for MARKET,
    triggerPrice otherwise — mirrored for a short); 422 \`unknown_pair\` (pairIndex), \`leverage_above_max\`
    / \`leverage_below_min\` (leverage; details maxLeverage / minLeverage), \`position_below_minimum\`
    (collateralUsdc; collateral × leverage under the pair’s minimum position, details minPositionUsd),
    \`insufficient_balance\` (collateralUsdc). ${COMMON}`,
  body: riskOpenBody,
  action: riskOpenAction,
  example: {
    body: {
      pairIndex: 0,
      long: true,
      leverage: 10,
      collateralUsdc: 100,
      markPrice: 95000,
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      tradeType: 0,
      tp: 104500,
      sl: 90250,
      slippagePct: 1,
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildRiskOpen(ctx.deps.builders, body),
})
