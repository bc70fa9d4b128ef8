import { z } from 'zod'
import { buildRiskCancel } from '../builders/riskCancel.js'
import { buildRiskClose } from '../builders/riskClose.js'
import { buildRiskModify } from '../builders/riskModify.js'
import { buildRiskOpen } from '../builders/riskOpen.js'
import { builder, owner } from './builder.js'
import { signedAmount } from './builderOutput.js'
import { atomicAmount, nonNegative, positive } from './fields.js'

/** Section E: leveraged trades on the perp venue (gTrade v10 on Base, USDC collateral index 1). */
const positiveInt = z.number().int().min(0)
/**
 * The venue's integer fields bound what a human number may be: a price is a uint64 x1e10 (at most
 * 1844674407.37…), leverage a uint24 x1e3 (16777.215), a trade index a uint32, a pair a uint16. Past them
 * the calldata cannot be encoded (a 500 or a 502, not the caller's 400); below 1e-10 a price encodes to 0,
 * which the venue reads as "none" (a TP or SL) or refuses (a price).
 */
const MAX_PRICE = 1_844_674_407
const MIN_PRICE = 1e-10
/** Far above USDC's supply, and below 1e21, where a number prints in exponent notation. */
const MAX_USDC = 1e12
const PRICE_RANGE = `must lie within ${MIN_PRICE}..${MAX_PRICE} (the venue holds prices as uint64 x1e10).`
const tradeIndex = positiveInt
  .max(2 ** 32 - 1, { error: 'must fit the venue’s uint32 trade index.' })
  .describe(
    'The venue’s trade index for this wallet (`index` in GET /v1/positions/{address} and /v1/pending-orders/{address}), not a position in a list',
  )
const leverage = z
  .number()
  .min(1.1)
  .max(16_777, { error: 'must be at most 16777 (the venue holds leverage as uint24 x1e3).' })
  .describe('Human leverage, >= 1.1 and within the pair’s live min/max (sent x1e3, rounded to 0.001)')
const price = z
  .number()
  .min(MIN_PRICE, { error: PRICE_RANGE })
  .max(MAX_PRICE, { error: PRICE_RANGE })
  .describe(`Human price in USD (sent x1e10), ${MIN_PRICE}..${MAX_PRICE}`)
const tpSl = (what: string) =>
  nonNegative
    .max(MAX_PRICE, { error: PRICE_RANGE })
    .refine((v) => v === 0 || v >= MIN_PRICE, {
      error: `must be 0 (none) or at least ${MIN_PRICE}: a smaller price encodes to 0, which the venue reads as none.`,
    })
    .describe(`Human ${what} price (sent x1e10); 0 or absent = none`)
const usdc = (what: string) =>
  positive.max(MAX_USDC, { error: `must be at most ${MAX_USDC} USDC.` }).describe(what)
const slippagePct = z
  .number()
  .min(0.001)
  .max(50)
  .default(1)
  .describe('Max slippage in percent, 0.001..50 (sent as maxSlippageP x1e3: 1 = 1000), default 1')

const tradeType = z
  .union([z.literal(0), z.literal(1), z.literal(2)], { error: 'must be 0 (MARKET), 1 (LIMIT) or 2 (STOP).' })
  .default(0)
  .describe('0 MARKET (filled by the venue’s oracle keeper), 1 LIMIT, 2 STOP (rest until the trigger)')

const COMMON =
  ' Every error is answered before anything is charged: 400 `invalid_input` naming the field for a malformed body; 422 `simulation_reverted` (decoded venue error) when the bundle, simulated in order from `owner`, reverts; 502 when the chain cannot be read.'
export const riskOpenBuilder = builder({
  id: 'buildRiskOpen',
  path: '/v1/tx/risk/open',
  summary: 'Open a leveraged trade on the perp venue',
  description:
    'gTrade v10 `openTrade(Trade, maxSlippageP, referrer = 0)` with the 15-field v10 Trade (user = owner, index 0, collateralIndex 1 = USDC, isOpen, positionSizeToken 0). Human inputs, venue scaling applied here: leverage x1e3, prices x1e10, USDC 6 dp, slippagePct x1e3. MARKET (tradeType 0) queues an order the venue’s oracle keeper fills asynchronously near `markPrice` (the Trade’s openPrice, the slippage reference); LIMIT (1) and STOP (2) rest at `triggerPrice` until the price crosses it. The exact USDC approve to the diamond is prepended when the live allowance is short. ' +
    'Read live in one multicall: the pair (`pairs`), its min/max leverage, minimum position size, fee (`pairTotalPositionSizeFeeP`), spread (`pairSpreadP`) and liquidation params, the owner’s USDC and allowance; then the venue’s own `getTradeLiquidationPrice` for the trade as expected to fill. ' +
    'Action: `expectedOpenPrice` (MARKET: markPrice moved half the pair spread against the trader; LIMIT/STOP: the trigger), `openingFee` (atomic USDC, collateral × leverage × the pair’s position-size fee, deducted from the collateral at the fill), `collateralAfterFee`, `liquidationPrice` (the venue’s, for that collateral and leverage at expectedOpenPrice), `positionSize`, `maxSlippageP` as encoded. ' +
    'Errors: 400 `invalid_input` naming `triggerPrice` (missing for LIMIT/STOP, present for MARKET, or on the wrong side of markPrice: a LIMIT long / STOP short must be below it, a STOP long / LIMIT short above), `tp` or `sl` (a long’s TP must be above and SL below the entry — markPrice for MARKET, triggerPrice otherwise — mirrored for a short); 422 `unknown_pair` (pairIndex), `leverage_above_max` / `leverage_below_min` (leverage; details maxLeverage / minLeverage), `position_below_minimum` (collateralUsdc; collateral × leverage under the pair’s minimum position, details minPositionUsd), `insufficient_balance` (collateralUsdc).' +
    COMMON,
  body: z
    .strictObject({
      pairIndex: positiveInt
        .max(65_535, { error: 'must fit the venue’s uint16 pair index.' })
        .describe('gTrade pair index (GET /v1/risk/pairs): 0 BTC/USD, 1 ETH/USD, …'),
      long: z.boolean().describe('true = long, false = short'),
      leverage,
      collateralUsdc: usdc('Human USDC pulled from owner as collateral (6 dp)'),
      markPrice: price.describe(
        'The pair’s current oracle price, human: GET /v1/prices perp.index (not perp.mark, which already includes the half spread this builder adds for expectedOpenPrice). MARKET’s slippage reference and the side check of triggers',
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
          data: '0x5bfcc4f800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000271000000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000005f5e100000000000000000000000000000000000000000000000000000360051c8960000000000000000000000000000000000000000000000000000003b66c05ca5000000000000000000000000000000000000000000000000000000334d1a7e8e80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003e80000000000000000000000000000000000000000000000000000000000000000',
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

export const riskCloseBuilder = builder({
  id: 'buildRiskClose',
  path: '/v1/tx/risk/close',
  summary: 'Market-close an open leveraged trade',
  description:
    'gTrade v10 `closeTradeMarket(index, expectedPrice x1e10)`: queues a market close that the venue’s oracle keeper fills asynchronously; the venue guards the fill with the trade’s own maxSlippageP (set at open) around `expectedPrice`, so the body takes no slippage of its own. `owner` is required here (the spec lists index and expectedPrice only): the trade is read from the diamond (`getTrade(owner, index)`) before calldata is returned, and the bundle is simulated from owner. ' +
    'Action: the trade (pair, side, leverage, collateral, openPrice) and the estimate at `expectedPrice`: `expectedExitPrice` (expectedPrice moved half the pair spread against the trader), `expectedPnl` (signed atomic USDC, collateral × leverage × the price move, capped at +900 %), `closingFee` (the pair’s position-size fee), `expectedPayout` = collateral + pnl − closingFee (floored at 0) — before holding (borrowing/funding) fees, which the estimate omits. ' +
    'Errors: 422 `trade_not_found` (index: no open trade of owner there), `resting_order` (index: a LIMIT/STOP not filled; cancel it with /v1/tx/risk/cancel), `close_pending` (index: a market close is already queued).' +
    COMMON,
  body: z.strictObject({
    index: tradeIndex,
    expectedPrice: price.describe(
      'The price you expect the close to fill near, human (the slippage reference)',
    ),
    owner,
  }),
  action: {
    type: z.literal('riskClose'),
    index: z.number().int(),
    pairIndex: z.number().int(),
    pair: z.string(),
    long: z.boolean(),
    leverage: z.number(),
    collateral: atomicAmount.describe('USDC collateral in the trade'),
    openPrice: z.number(),
    expectedExitPrice: z.number().describe('expectedPrice − half the spread for a long (+ for a short)'),
    expectedPnl: signedAmount.describe('Signed USDC at expectedExitPrice, before holding fees'),
    closingFee: atomicAmount.describe('USDC'),
    expectedPayout: atomicAmount.describe('USDC returned: collateral + expectedPnl − closingFee'),
  },
  example: {
    body: { index: 1, expectedPrice: 3500, owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: '0x36ce736b000000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000001fd512913000',
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

export const riskModifyBuilder = builder({
  id: 'buildRiskModify',
  path: '/v1/tx/risk/modify',
  summary: 'Modify a trade (leverage, size, TP, SL) or a resting order (trigger, TP, SL)',
  description:
    'Filled trade: `tp` / `sl` → `updateTp` / `updateSl` (synchronous; 0 removes), then at most one queued market change the oracle keeper fills: `leverage` → `updateLeverage(index, leverage x1e3)`, which keeps the position size, so a decrease pulls a top-up of collateral × old / new − collateral (the exact USDC approve prepended when short) and an increase returns collateral; or `sizeDeltaUsdc` > 0 → `increasePositionSize(index, collateral, the trade’s leverage, expectedPrice, maxSlippageP)` (approve prepended), < 0 → `decreasePositionSize(index, collateral, 0, expectedPrice)` (collateral out at constant leverage, with its share of the PnL). Resting LIMIT/STOP order: `triggerPrice`, `tp`, `sl` → one `updateOpenOrder(index, trigger, tp, sl, maxSlippageP)`, unchanged parts carried over. ' +
    'Action: `changes` in step order, `collateralDelta` (signed atomic USDC of the trade’s collateral as asked: + pulled from owner, − released), `newLeverage`. ' +
    'Errors: 400 `invalid_input` (none of leverage/sizeDeltaUsdc/tp/sl/triggerPrice; both leverage and sizeDeltaUsdc; sizeDeltaUsdc without expectedPrice); 422 `trade_not_found` (index), `wrong_side` (tp or sl: a long’s TP must be above and SL below the trade’s entry — its openPrice, or the new trigger of a resting order — mirrored for a short), `leverage_above_max` / `leverage_below_min` / `leverage_unchanged` (leverage), `resting_order` (leverage or sizeDeltaUsdc on a resting order), `not_a_resting_order` (triggerPrice on a filled trade), `order_pending` (index: a market order on this trade is still queued), `decrease_too_large` (sizeDeltaUsdc: at or beyond the collateral; close instead), `insufficient_balance` (leverage or sizeDeltaUsdc).' +
    COMMON,
  body: z
    .strictObject({
      index: tradeIndex,
      owner,
      leverage: leverage
        .optional()
        .describe('New leverage of a filled trade, human, within the pair’s live max'),
      sizeDeltaUsdc: z
        .number()
        .min(-MAX_USDC, { error: `must lie within -${MAX_USDC}..${MAX_USDC} USDC.` })
        .max(MAX_USDC, { error: `must lie within -${MAX_USDC}..${MAX_USDC} USDC.` })
        .refine((v) => v !== 0, { error: 'must not be 0: positive increases, negative decreases.' })
        .optional()
        .describe('Collateral delta in human USDC at the trade’s leverage: + increase / − decrease, never 0'),
      tp: tpSl('new take-profit').optional(),
      sl: tpSl('new stop-loss').optional(),
      triggerPrice: price.optional().describe('New trigger of a resting LIMIT/STOP order, human'),
      expectedPrice: price
        .optional()
        .describe('Required with sizeDeltaUsdc: the price the size change should fill near, human'),
      slippagePct,
    })
    .refine((b) => [b.leverage, b.sizeDeltaUsdc, b.tp, b.sl, b.triggerPrice].some((v) => v !== undefined), {
      error: 'is required: pass at least one of leverage, sizeDeltaUsdc, tp, sl, triggerPrice.',
      path: ['leverage'],
    })
    .refine((b) => b.leverage === undefined || b.sizeDeltaUsdc === undefined, {
      error: 'cannot be combined with leverage: the venue queues one market change per trade at a time.',
      path: ['sizeDeltaUsdc'],
    })
    .refine((b) => b.sizeDeltaUsdc === undefined || b.expectedPrice !== undefined, {
      error: 'is required when sizeDeltaUsdc is set.',
      path: ['expectedPrice'],
    }),
  action: {
    type: z.literal('riskModify'),
    index: z.number().int(),
    pairIndex: z.number().int(),
    changes: z
      .array(z.enum(['leverage', 'sizeDeltaUsdc', 'tp', 'sl', 'triggerPrice']))
      .describe('What the steps change, in step order'),
    collateralDelta: signedAmount.describe(
      'USDC: + pulled from owner, − released; "0" for TP/SL/trigger only',
    ),
    newLeverage: z.number().nullable().describe('After a leverage update; null otherwise'),
  },
  example: {
    body: { index: 1, owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', tp: 5000, sl: 3000 },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: '0xf401f2bb000000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000002d79883d2000',
          value: '0',
          description: 'Set TP of trade 1 to 5000',
        },
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: '0xb5d9e9d0000000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000001b48eb57e000',
          value: '0',
          description: 'Set SL of trade 1 to 3000',
        },
      ],
      action: {
        type: 'riskModify',
        index: 1,
        pairIndex: 1,
        changes: ['tp', 'sl'],
        collateralDelta: '0',
        newLeverage: null,
      },
    },
  },
  handler: (body, ctx) => buildRiskModify(ctx.deps.builders, body),
})

export const riskCancelBuilder = builder({
  id: 'buildRiskCancel',
  path: '/v1/tx/risk/cancel',
  summary: 'Cancel a resting limit or stop order',
  description:
    'gTrade v10 `cancelOpenOrder(index)`: cancels the resting LIMIT/STOP order `index` of `owner` (GET /v1/pending-orders/{address}); its whole collateral returns to owner in the same transaction (`refund`). Errors: 422 `order_not_found` (index: no resting order of owner there, including a filled trade — close that with /v1/tx/risk/close).' +
    COMMON,
  body: z.strictObject({ index: tradeIndex, owner }),
  action: {
    type: z.literal('riskCancel'),
    index: z.number().int(),
    pairIndex: z.number().int(),
    orderType: z.enum(['limit', 'stop']),
    triggerPrice: z.number(),
    refund: atomicAmount.describe('USDC returned to owner'),
  },
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
