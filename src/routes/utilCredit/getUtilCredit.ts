import { z } from 'zod'
import { address } from '../../chain/fields.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute, notImplemented } from '../route.js'

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
