import { getRiskPairs, riskPairsOutput } from '../../market/risk/getRiskPairs.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const getRiskPairsRoute = defineRoute({
  id: 'getRiskPairs',
  method: 'GET',
  path: '/v1/risk/pairs',
  priceUsd: PRICES.getRiskPairs,
  errors: ['upstream_not_found'],
  tier: 'data',
  summary: 'Leverage pair universe',
  description: prose`
    Every tradable perp pair, from the venue’s backend (trading variables): pairIndex (onchain: the position
    in the backend’s pairs array, never renumbered, so indices can skip), symbol (FROM/TO), group, min and
    max leverage (the pair’s own cap when it has one, else its group’s) and spread in percent (a market fill
    pays half of it). Pairs the venue has disabled (cap below the group minimum) and empty slots are left
    out.`,
  input: {},
  output: riskPairsOutput,
  example: {
    output: exampleOutput(import.meta.url),
  },
  handler: async (_input, ctx) => ({ pairs: await getRiskPairs(ctx.deps.market) }),
})
