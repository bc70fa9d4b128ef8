import { z } from 'zod'
import { buildCatalog, catalogSchema } from '../discovery/catalog.js'
import { getMajors } from '../market/getMajors.js'
import { referralStanding } from '../referrals/referralStanding.js'
import { address, txHash } from './fields.js'
import { defineRoute, notImplemented } from './route.js'

/** Section D: the free endpoints and the prop desk. */
export const catalogRoute = defineRoute({
  id: 'getCatalog',
  method: 'GET',
  path: '/v1',
  priceUsd: null,
  tier: 'free',
  summary: 'Full catalog of endpoints, with live prices of the majors',
  description:
    'Every endpoint with method, path, posted price, current price (posted times surge), tier, summary and parameters; the payment terms, the surge rule and multiplier, and links to the discovery documents. The `prices` block (live spot USD of BTC, ETH and SOL from the exchange) is omitted, never invented, when the exchange does not answer within 1.5 s.',
  input: {},
  output: catalogSchema,
  handler: async (_input, ctx) =>
    buildCatalog(ctx.routes, ctx.deps.config, {
      surgeMultiplier: ctx.deps.surge.multiplier(),
      prices: await getMajors(ctx.deps.market),
    }),
})

export const referralsRoute = defineRoute({
  id: 'getReferrals',
  method: 'GET',
  path: '/v1/referrals/{wallet}',
  priceUsd: null,
  tier: 'free',
  summary: 'Referral standing for a wallet',
  description:
    'Wallets referred through ?ref=, their settled paid calls and paid volume, calls served whose settlement is still being recorded (pendingCalls: a call just served counts there or in paidCalls, never in neither), and points (1 point per $0.001 of settled volume). Rewards are non-payable points: nothing is owed or paid out (the later of the spec’s two statements stands).',
  input: { params: z.object({ wallet: address }) },
  output: z.object({
    wallet: address,
    referredWallets: z.number().int(),
    paidCalls: z.number().int().describe('Settled paid calls made through the referral'),
    pendingCalls: z
      .number()
      .int()
      .describe(
        'Calls served whose settlement is not recorded yet (written just after the response, or awaiting the chain); each becomes a paid call or, if the chain shows no payment, drops out',
      ),
    paidVolumeUsd: z.number(),
    points: z.number(),
    terms: z.string(),
  }),
  handler: async ({ params }, ctx) =>
    referralStanding(params.wallet, await ctx.deps.ledger.referralStanding(params.wallet)),
})

export const utilCreditRoute = defineRoute({
  id: 'getUtilCredit',
  method: 'GET',
  path: '/v1/util-credit/{wallet}',
  priceUsd: null,
  tier: 'free',
  summary: 'Prepaid UTIL credit balance and the rail’s terms',
  description:
    'Credit balance in USD for `wallet` and the rail’s full terms: send UTIL to the recipient, pass X-UTIL-TOPUP: <txHash> once (under 24 hours old, single-use), calls then debit half the posted price with no surge; X-UTIL-CREDIT: off forces USDC.',
  input: { params: z.object({ wallet: address }) },
  output: z.object({
    wallet: address,
    balanceUsd: z.number(),
    terms: z.object({
      recipient: address,
      rate: z.literal(0.5),
      surgeExempt: z.literal(true),
      topUpHeader: z.literal('X-UTIL-TOPUP'),
      optOutHeader: z.literal('X-UTIL-CREDIT'),
      maxTopUpAgeSec: z.number().int(),
    }),
  }),
  handler: notImplemented('UTIL credit rail'),
})

/** Known prop actions. Only trade.open is specified; more join this list as the desk grows. */
const actionId = z.enum(['trade.open'], { error: 'must be a known prop action: trade.open.' })
const propParams = z
  .record(z.string(), z.unknown())
  .describe('The action’s parameters (trade.open: the risk/open body)')

/** The trade.open parameters both prop examples use (the risk/open body). */
const tradeOpenExample = {
  pairIndex: 1,
  long: true,
  leverage: 5,
  collateralUsdc: 100,
  markPrice: 3012.7,
  tp: 3195.5,
  sl: 2921.3,
  owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
}

export const propQuoteRoute = defineRoute({
  id: 'propQuote',
  method: 'POST',
  path: '/v1/prop/quote',
  priceUsd: 0.005,
  tier: 'prop',
  summary: 'Prop desk quote: UTIL cost, match factor, eligibility',
  description:
    'UTIL cost, match factor and eligibility for `actionId` with its `params`. Membership needs $500 of combined held, burned and sent UTIL.',
  input: { body: z.strictObject({ actionId, params: propParams }) },
  output: z.object({
    actionId: z.string(),
    utilCost: z.string().describe('Atomic UTIL'),
    matchFactor: z.number(),
    eligible: z.boolean(),
    reasons: z.array(z.string()),
  }),
  example: {
    body: {
      actionId: 'trade.open',
      params: tradeOpenExample,
    },
    output: {
      actionId: 'trade.open',
      utilCost: '2500000000000000000000',
      matchFactor: 1.5,
      eligible: true,
      reasons: [],
    },
  },
  handler: notImplemented('prop desk'),
})

export const propExecuteRoute = defineRoute({
  id: 'propExecute',
  method: 'POST',
  path: '/v1/prop/execute',
  priceUsd: 0.01,
  tier: 'prop',
  summary: 'Run a prop desk action',
  description:
    'Runs `actionId` with its `params`. Needs exactly one of payTxHash (agents: UTIL transfer to the desk recipient) or burnTxHash (humans: UTIL burn to the dead address), from the member wallet.',
  input: {
    body: z
      .strictObject({
        actionId,
        params: propParams,
        payTxHash: txHash.optional(),
        burnTxHash: txHash.optional(),
      })
      .refine((b) => (b.payTxHash === undefined) !== (b.burnTxHash === undefined), {
        error: 'is required: pass exactly one of payTxHash or burnTxHash.',
        path: ['payTxHash'],
      }),
  },
  output: z.object({ actionId: z.string(), status: z.string(), txHash: z.string().nullable() }),
  example: {
    body: {
      actionId: 'trade.open',
      params: tradeOpenExample,
      payTxHash: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
    },
    output: {
      actionId: 'trade.open',
      status: 'submitted',
      txHash: '0x9f2d1a3b6c7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f506172',
    },
  },
  handler: notImplemented('prop desk'),
})

export const freeRoutes = [catalogRoute, referralsRoute, utilCreditRoute]
export const propRoutes = [propQuoteRoute, propExecuteRoute]
