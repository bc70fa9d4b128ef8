import { z } from 'zod'
import { address, txHash } from '../../chain/fields.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { actionId, propParams, tradeOpenExample } from '../shared/propFields.js'

export const propExecuteRoute = defineRoute({
  id: 'propExecute',
  method: 'POST',
  path: '/v1/prop/execute',
  priceUsd: PRICES.propExecute,
  errors: [
    'bad_pay_tx_hash',
    'bad_burn_tx_hash',
    'prop_ineligible',
    'prop_payer_unproven',
    'prop_over_allotment',
    'prop_over_exposure',
    'prop_pair_not_allowed',
    'prop_cooldown',
    'prop_position_unknown',
    'prop_position_pending',
    'prop_position_closed',
    'prop_desk_unavailable',
    'unknown_pair',
    'leverage_above_max',
    'leverage_below_min',
    'position_below_minimum',
    'insufficient_balance',
    'simulation_reverted',
    'trade_not_found',
    'close_pending',
  ],
  tier: 'prop',
  actsOnchain: true,
  summary: 'Run a prop desk action',
  description: prose`
    Runs \`actionId\` with its \`params\`. Needs exactly one of payTxHash (agents: UTIL transfer to the desk
    recipient) or burnTxHash (humans: UTIL burn to the dead address), from the member wallet, of at least
    the quoted UTIL when \`quoteToken\` is the quote's token (else of the cost at the pool price now).`,
  input: {
    body: z.strictObject({
      actionId,
      params: propParams,
      payTxHash: txHash.optional(),
      burnTxHash: txHash.optional(),
      quoteToken: z
        .string()
        .max(200)
        .optional()
        .describe(
          'quote.token of POST /v1/prop/quote for the same actionId and params: its utilCost is what the transfer ' +
            'must carry until the quote expires (within its tolerance). Without it, the cost at the pool price now',
        ),
    }),
  },
  output: z.object({
    actionId: z.string(),
    status: z.string(),
    txHash: z.string().nullable(),
    positionId: z
      .number()
      .int()
      .describe('trade.open: the new position (pass it to trade.close); trade.close: the one closed'),
    member: address.describe('The paying wallet: the position is attributed to it'),
    desk: address.describe('The desk wallet that holds the position, with the desk’s capital'),
    utilPaid: z.string().describe('Atomic UTIL of the authorizing transfer'),
    deskTxs: z.array(txHash).describe('The desk’s transactions, in order, all mined'),
    position: z.object({
      state: z
        .enum(['pending_fill', 'closing'])
        .describe('A MARKET order is filled by the venue’s keeper after it'),
      openBlock: z.number().int().nullable().optional(),
      orderIndex: z
        .number()
        .int()
        .nullable()
        .optional()
        .describe('The venue’s pending order index of the open'),
    }),
  }),
  example: {
    body: {
      actionId: 'trade.open',
      params: tradeOpenExample,
      payTxHash: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
    },
    // Its payTxHash authorizes one action once: the example is not served again (hand-written output).
    replayable: false,
    output: {
      actionId: 'trade.open',
      status: 'executed',
      txHash: '0x9f2d1a3b6c7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f506172',
      positionId: 1,
      member: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      desk: '0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097',
      utilPaid: '50000000000000000000000',
      deskTxs: [
        '0x1c0b2a7d9e8f60718293a4b5c6d7e8f9a0b1c2d3e4f5061728394a5b6c7d8e9f',
        '0x9f2d1a3b6c7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f506172',
      ],
      position: { state: 'pending_fill', openBlock: 112, orderIndex: 0 },
    },
  },
  handler: ({ body }, ctx) => ctx.deps.prop.execute(ctx.payer, body),
})
