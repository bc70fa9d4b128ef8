import { z } from 'zod'
import { address } from '../../chain/fields.js'
import { prose } from '../../prose.js'
import { referralStanding } from '../../referrals/referralStanding.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'

export const getReferralsRoute = defineRoute({
  id: 'getReferrals',
  method: 'GET',
  path: '/v1/referrals/{wallet}',
  priceUsd: PRICES.getReferrals,
  errors: [],
  tier: 'free',
  summary: 'Referral standing for a wallet',
  description: prose`
    Wallets referred through ?ref=, their settled paid calls and paid volume, calls served whose settlement
    is still being recorded (pendingCalls: a call just served counts there or in paidCalls, never in
    neither), and points (1 point per $0.001 of settled volume). Rewards are non-payable points: nothing is
    owed or paid out (the later of the spec’s two statements stands).`,
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
