import { z } from 'zod'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute, notImplemented } from '../route.js'
import { actionId, propParams, tradeOpenExample } from '../shared/propFields.js'

export const propQuoteRoute = defineRoute({
  id: 'propQuote',
  method: 'POST',
  path: '/v1/prop/quote',
  priceUsd: PRICES.propQuote,
  errors: [],
  tier: 'prop',
  summary: 'Prop desk quote: UTIL cost, match factor, eligibility',
  description: prose`
    UTIL cost, match factor and eligibility for \`actionId\` with its \`params\`. Membership needs $500 of
    combined held, burned and sent UTIL.`,
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
