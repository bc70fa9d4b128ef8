import { z } from 'zod'
import { address } from '../../chain/fields.js'
import { PROP_TERMS } from '../../prop/propTerms.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'
import { actionId, propParams, tradeOpenExample } from '../shared/propFields.js'

export const propQuoteRoute = defineRoute({
  id: 'propQuote',
  method: 'POST',
  path: '/v1/prop/quote',
  priceUsd: PRICES.propQuote,
  errors: ['prop_payer_unproven', 'prop_desk_unavailable'],
  tier: 'prop',
  summary: 'Prop desk quote: UTIL cost, match factor, eligibility',
  description: prose`
    UTIL cost, match factor and eligibility for \`actionId\` with its \`params\`. Membership needs $500 of
    combined held, burned and sent UTIL. The answer's \`quote.token\` holds \`utilCost\` for ${PROP_TERMS.quoteValidSec / 60} minutes
    through POST /v1/prop/execute (within a ${PROP_TERMS.quoteTolerancePct}% move of the UTIL/USDC price).`,
  input: { body: z.strictObject({ actionId, params: propParams }) },
  output: z.object({
    actionId: z.string(),
    utilCost: z.string().describe('Atomic UTIL'),
    matchFactor: z.number(),
    eligible: z.boolean(),
    reasons: z.array(z.string()),
    utilCostUsd: z.number().describe('The cost in USD; utilCost is it at the UTIL/USDC pool price now'),
    quote: z
      .object({
        token: z
          .string()
          .describe('Pass it to POST /v1/prop/execute as quoteToken, with the same actionId and params'),
        expiresAt: z.number().int().describe('Unix seconds: execute honours utilCost until then'),
        tolerancePct: z
          .number()
          .describe(
            'While the cost at the pool price at execute is at most this much above utilCost; past it, the price then applies',
          ),
      })
      .describe(
        'This quote, signed for the paying wallet and exactly these params: send utilCost, then execute with ' +
          'quoteToken before expiresAt, and a UTIL/USDC tick in between does not refuse it',
      ),
    membership: z
      .object({
        heldUsd: z.number(),
        burnedUsd: z.number(),
        sentUsd: z.number(),
        combinedUsd: z.number(),
        thresholdUsd: z.number(),
        executedActions: z.number().int().describe('Desk actions executed for this wallet (its record)'),
      })
      .describe('The paying wallet’s UTIL held, burned and sent to the desk, at the pool price now'),
    allotment: z
      .object({
        maxCollateralUsdc: z.number(),
        maxLeverage: z.number().int(),
        pairs: z.array(z.number().int()).describe('Pair indexes the desk trades'),
      })
      .describe(
        'The most the desk puts on one trade for this member: $100 × matchFactor, 10 × matchFactor (≤ 25)',
      ),
    cooldownRemainingSec: z.number().int(),
    send: z.object({
      agents: z.object({ to: address.nullable(), field: z.literal('payTxHash') }),
      humans: z.object({ to: address, field: z.literal('burnTxHash') }),
    }),
  }),
  example: {
    body: { actionId: 'trade.open', params: tradeOpenExample },
    output: exampleOutput(import.meta.url),
  },
  handler: ({ body }, ctx) => ctx.deps.prop.quote(ctx.payer, body),
})
