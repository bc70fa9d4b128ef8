import { z } from 'zod'
import { address, txHash } from '../../chain/fields.js'
import { creditStatement } from '../../payments/credit/creditStatement.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'

export const getUtilCreditRoute = defineRoute({
  id: 'getUtilCredit',
  method: 'GET',
  path: '/v1/util-credit/{wallet}',
  priceUsd: PRICES.getUtilCredit,
  errors: [],
  tier: 'free',
  summary: 'Prepaid UTIL credit balance and the rail’s terms',
  description: prose`
    Credit balance in USD for \`wallet\` and the rail’s full terms: send UTIL to the recipient, pass
    X-UTIL-TOPUP: <txHash> once (under 24 hours old, single-use), calls then debit half the posted price
    with no surge; X-UTIL-CREDIT: off forces USDC.`,
  input: { params: z.object({ wallet: address }) },
  output: z.object({
    wallet: address,
    balanceUsd: z.number(),
    balanceAtomic: z.string().describe('The balance in USDC atomic units (micro-USD): exact'),
    terms: z.object({
      recipient: address,
      token: address.nullable().describe('The UTIL token; null where this deployment has none'),
      pool: address.nullable().describe('The UTIL/USDC Uniswap v3 pool that values top-ups'),
      available: z.boolean().describe('Whether top-ups are accepted here'),
      rate: z.literal(0.5),
      surgeExempt: z.literal(true),
      topUpHeader: z.literal('X-UTIL-TOPUP'),
      optOutHeader: z.literal('X-UTIL-CREDIT'),
      maxTopUpAgeSec: z.number().int(),
      oracleWindowSec: z
        .number()
        .int()
        .describe('The pool oracle window whose time-weighted mean price bounds a credit'),
      maxShareOfPool: z.number().describe('A top-up is credited at most this share of the pool’s USDC depth'),
      valuation: z.string(),
    }),
    topUps: z.array(
      z.object({
        txHash,
        utilAmount: z.string().describe('UTIL base units (18 decimals) credited'),
        creditedUsd: z.number(),
        blockNumber: z.number().int(),
        blockTime: z.number().int(),
        registeredAt: z.string(),
      }),
    ),
    debits: z.array(
      z.object({
        route: z.string(),
        amountUsd: z.number(),
        status: z
          .enum(['held', 'spent', 'released', 'restored'])
          .describe(
            'held: the call is running; spent: served; released: not served, credit given back; restored: its authorization paid USDC onchain, credit given back',
          ),
        nonce: z.string().describe('The authorization that paid the call'),
        at: z.string(),
      }),
    ),
  }),
  handler: async ({ params }, { deps }) =>
    creditStatement(params.wallet, deps.creditBook, {
      recipient: deps.config.payments.creditRecipient,
      token: deps.config.utilToken,
      pool: deps.config.payments.creditPool,
    }),
})
