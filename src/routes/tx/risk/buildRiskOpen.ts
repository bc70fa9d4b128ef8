import { z } from 'zod'
import { buildRiskOpen } from '../../../builders/riskOpen.js'
import { PRICES } from '../../prices.js'
import { builder, owner } from '../../shared/builder.js'
import { hex } from '../../shared/builderExample.js'
import { atomicAmount, positive } from '../../shared/fields.js'
import { prose } from '../../shared/prose.js'
import { COMMON, leverage, MAX_USDC, positiveInt, price, slippagePct, tpSl } from '../../shared/riskFields.js'

const usdc = (what: string) =>
  positive.max(MAX_USDC, { error: `must be at most ${MAX_USDC} USDC.` }).describe(what)

const tradeType = z
  .union([z.literal(0), z.literal(1), z.literal(2)], { error: 'must be 0 (MARKET), 1 (LIMIT) or 2 (STOP).' })
  .default(0)
  .describe('0 MARKET (filled by the venue’s oracle keeper), 1 LIMIT, 2 STOP (rest until the trigger)')

export const buildRiskOpenRoute = builder({
  id: 'buildRiskOpen',
  path: '/v1/tx/risk/open',
  priceUsd: PRICES.buildRiskOpen,
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
  body: z
    .strictObject({
      pairIndex: positiveInt
        .max(65_535, { error: 'must fit the venue’s uint16 pair index.' })
        .describe('gTrade pair index (GET /v1/risk/pairs): 0 BTC/USD, 1 ETH/USD, …'),
      long: z.boolean().describe('true = long, false = short'),
      leverage,
      collateralUsdc: usdc('Human USDC pulled from owner as collateral (6 dp)'),
      markPrice: price.describe(
        prose`
          The pair’s current oracle price, human: GET /v1/prices perp.index (not perp.mark, which already
          includes the half spread this builder adds for expectedOpenPrice). MARKET’s slippage reference and
          the side check of triggers`,
      ),
      owner,
      tradeType,
      triggerPrice: price.optional().describe('LIMIT/STOP only: the trigger, human'),
      tp: tpSl('take-profit').optional(),
      sl: tpSl('stop-loss').optional(),
      slippagePct,
    })
    .refine((b) => b.tradeType === 0 || b.triggerPrice !== undefined, {
      error: 'is required for LIMIT (1) and STOP (2) orders.',
      path: ['triggerPrice'],
    })
    .refine((b) => b.tradeType !== 0 || b.triggerPrice === undefined, {
      error: 'is only for LIMIT (1) and STOP (2) orders; a MARKET order fills near markPrice.',
      path: ['triggerPrice'],
    }),
  action: {
    type: z.literal('riskOpen'),
    pairIndex: z.number().int(),
    pair: z.string().describe('"BTC/USD"'),
    long: z.boolean(),
    tradeType: z.number().int().describe('0 MARKET, 1 LIMIT, 2 STOP'),
    leverage: z.number().describe('As encoded (x1e3 back to human)'),
    collateral: atomicAmount.describe('USDC pulled from owner'),
    positionSize: atomicAmount.describe('USDC: collateral × leverage'),
    orderPrice: z.number().describe('The Trade’s openPrice: markPrice (MARKET) or triggerPrice'),
    expectedOpenPrice: z
      .number()
      .describe('MARKET: markPrice + half the pair spread against the trader; LIMIT/STOP: the trigger'),
    openingFee: atomicAmount.describe('USDC the venue deducts from the collateral at the fill'),
    collateralAfterFee: atomicAmount.describe('USDC collateral of the filled trade'),
    liquidationPrice: z
      .number()
      .describe('The venue’s getTradeLiquidationPrice at expectedOpenPrice with collateralAfterFee'),
    tp: z.number().describe('0 = none'),
    sl: z.number().describe('0 = none'),
    maxSlippageP: z.number().int().describe('slippagePct x1e3, as encoded'),
  },
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
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: hex`
            0x5bfcc4f8
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000002710
            0000000000000000000000000000000000000000000000000000000000000001
            0000000000000000000000000000000000000000000000000000000000000001
            0000000000000000000000000000000000000000000000000000000000000001
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000005f5e100
            000000000000000000000000000000000000000000000000000360051c896000
            0000000000000000000000000000000000000000000000000003b66c05ca5000
            000000000000000000000000000000000000000000000000000334d1a7e8e800
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000
            00000000000000000000000000000000000000000000000000000000000003e8
            0000000000000000000000000000000000000000000000000000000000000000`,
          value: '0',
          description: 'Open BTC/USD long 10x, 100 USDC, TP 104500, SL 90250',
        },
      ],
      action: {
        type: 'riskOpen',
        pairIndex: 0,
        pair: 'BTC/USD',
        long: true,
        tradeType: 0,
        leverage: 10,
        collateral: '100000000',
        positionSize: '1000000000',
        orderPrice: 95000,
        expectedOpenPrice: 95019,
        openingFee: '600000',
        collateralAfterFee: '99400000',
        liquidationPrice: 86524.3014,
        tp: 104500,
        sl: 90250,
        maxSlippageP: 1000,
      },
    },
  },
  handler: (body, ctx) => buildRiskOpen(ctx.deps.builders, body),
})
