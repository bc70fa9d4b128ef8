import { z } from 'zod'
import { builder, owner } from './builder.js'
import { nonNegative, positive } from './fields.js'

/** Section E: leveraged trades on the perp venue (gTrade v10). */
const positiveInt = z.number().int().min(0)
const leverage = z.number().min(1.1).describe('Human leverage, >= 1.1, capped by the pair maximum')
const price = nonNegative.describe('Human price (the service scales to 1e10)')

const tradeType = z
  .union([z.literal(0), z.literal(1), z.literal(2)], { error: 'must be 0 (MARKET), 1 (LIMIT) or 2 (STOP).' })
  .default(0)

export const riskOpenBuilder = builder({
  id: 'buildRiskOpen',
  path: '/v1/tx/risk/open',
  summary: 'Open a leveraged trade on the perp venue',
  description:
    'Human-scale inputs; the service applies venue scaling (leverage x1e3, prices x1e10, USDC 6 dp, slippage x1e3). tradeType 0 MARKET, 1 LIMIT, 2 STOP (triggerPrice required for 1 and 2). Set tp and sl at open. USDC approve prepended when needed.',
  body: z
    .strictObject({
      pairIndex: positiveInt,
      long: z.boolean(),
      leverage,
      collateralUsdc: positive.describe('Human USDC, above 0'),
      markPrice: price,
      owner,
      tradeType,
      triggerPrice: price.optional(),
      tp: price.optional(),
      sl: price.optional(),
      slippagePct: z.number().min(0).max(100).default(1).describe('Max slippage in percent, default 1'),
    })
    .refine((b) => b.tradeType === 0 || b.triggerPrice !== undefined, {
      error: 'is required for LIMIT (1) and STOP (2) orders.',
      path: ['triggerPrice'],
    }),
  action: {
    type: z.literal('riskOpen'),
    pairIndex: z.number().int(),
    long: z.boolean(),
    leverage: z.number(),
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
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: '0x095ea7b30000000000000000000000006cd5ac19a07518a8092eeffda4f1174c72704eeb0000000000000000000000000000000000000000000000000000000005f5e100',
          value: '0',
          description: 'Approve 100 USDC to the perp venue',
        },
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: '0x5bfcc4f800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000271000000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000005f5e100000000000000000000000000000000000000000000000000000360051c8960000000000000000000000000000000000000000000000000000003b66c05ca5000000000000000000000000000000000000000000000000000000334d1a7e8e80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003e80000000000000000000000000000000000000000000000000000000000000000',
          value: '0',
          description: 'Open BTC/USD long 10x, 100 USDC, TP 104500, SL 90250',
        },
      ],
      action: { type: 'riskOpen', pairIndex: 0, long: true, leverage: 10 },
    },
  },
  capability: 'perp builders',
})

export const riskCloseBuilder = builder({
  id: 'buildRiskClose',
  path: '/v1/tx/risk/close',
  summary: 'Market-close an open leveraged trade',
  description:
    '`index` is the wallet’s open-trade index; `expectedPrice` guards the fill. `owner` is optional: when given, the trade is checked to exist before calldata is returned.',
  body: z.strictObject({ index: positiveInt, expectedPrice: price, owner: owner.optional() }),
  action: { type: z.literal('riskClose'), index: z.number().int() },
  example: {
    body: { index: 0, expectedPrice: 95250, owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: '0x36ce736b00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003624b30260800',
          value: '0',
          description: 'Market-close trade 0 near 95250',
        },
      ],
      action: { type: 'riskClose', index: 0 },
    },
  },
  capability: 'perp builders',
})

export const riskModifyBuilder = builder({
  id: 'buildRiskModify',
  path: '/v1/tx/risk/modify',
  summary: 'Modify an open trade: leverage, size, TP or SL',
  description:
    'Pass at least one of `leverage` (new leverage; a decrease tops up collateral, with the USDC approve prepended), `sizeDeltaUsdc` (positive increases the position by that collateral, negative decreases it), `tp`, `sl` (0 removes). `expectedPrice` guards size changes.',
  body: z
    .strictObject({
      index: positiveInt,
      owner,
      leverage: leverage.optional(),
      sizeDeltaUsdc: z
        .number()
        .refine((v) => v !== 0, { error: 'must not be 0: positive increases, negative decreases.' })
        .optional()
        .describe('Collateral delta in human USDC, + increase / - decrease, never 0'),
      tp: price.optional(),
      sl: price.optional(),
      expectedPrice: price.optional(),
      slippagePct: z.number().min(0).max(100).default(1),
    })
    .refine((b) => [b.leverage, b.sizeDeltaUsdc, b.tp, b.sl].some((v) => v !== undefined), {
      error: 'is required: pass at least one of leverage, sizeDeltaUsdc, tp, sl.',
      path: ['leverage'],
    })
    .refine((b) => b.sizeDeltaUsdc === undefined || b.expectedPrice !== undefined, {
      error: 'is required when sizeDeltaUsdc is set.',
      path: ['expectedPrice'],
    }),
  action: { type: z.literal('riskModify'), index: z.number().int(), changes: z.array(z.string()) },
  example: {
    body: { index: 0, owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', tp: 104000, sl: 92500 },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: '0xf401f2bb00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003b1dfde910000',
          value: '0',
          description: 'Set TP of trade 0 to 104000',
        },
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: '0xb5d9e9d0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000034948586ad000',
          value: '0',
          description: 'Set SL of trade 0 to 92500',
        },
      ],
      action: { type: 'riskModify', index: 0, changes: ['tp', 'sl'] },
    },
  },
  capability: 'perp builders',
})

export const riskCancelBuilder = builder({
  id: 'buildRiskCancel',
  path: '/v1/tx/risk/cancel',
  summary: 'Cancel a resting limit or stop order',
  description:
    'Cancels the resting order `index` of `owner` (see /v1/pending-orders/{address}); collateral returns.',
  body: z.strictObject({ index: positiveInt, owner }),
  action: { type: z.literal('riskCancel'), index: z.number().int() },
  example: {
    body: { index: 1, owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: '0x858863330000000000000000000000000000000000000000000000000000000000000001',
          value: '0',
          description: 'Cancel resting order 1; its 200 USDC returns',
        },
      ],
      action: { type: 'riskCancel', index: 1 },
    },
  },
  capability: 'perp builders',
})
