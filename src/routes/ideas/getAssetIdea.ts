import { z } from 'zod'
import { ideaBasis } from '../../analytics/ideaFromBars.js'
import { symbol } from '../../chain/fields.js'
import { assetIdeaOutput, getAssetIdea } from '../../market/ideas/getAssetIdea.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'
import { IDEA_RULES } from '../shared/ideaRules.js'

export const getAssetIdeaRoute = defineRoute({
  id: 'getAssetIdea',
  method: 'GET',
  path: '/v1/ideas/asset/{sym}',
  priceUsd: PRICES.getAssetIdea,
  errors: ['unknown_instrument', 'upstream_not_found'],
  tier: 'data',
  summary: 'One market’s leverage edge, with alternatives or a hedge',
  description: prose`
    A single-asset read of \`sym\`: its idea with target, liquidation and edge (status ok), or why there is
    none (neutral with its reason, or insufficient_history with \`needed\` and \`got\`), read together with
    the default universe of GET /v1/ideas.

    \`alternatives\`: same-direction ideas of the universe whose edge × leverage beats the asset’s, best
    first, at most 3 (without an idea for the asset: the universe’s best 3 by edge × leverage); \`hedge\`:
    the best opposite-direction idea (conviction order) of the asset’s own category, else of any category;
    null when none or when the asset has no idea. Only ideas with edge > 0 are offered. ${IDEA_RULES} A
    ticker without a listed pair is 404 \`unknown_instrument\` naming \`sym\`, not charged.`,
  input: { params: z.object({ sym: symbol }), query: z.object({ basis: ideaBasis }) },
  output: assetIdeaOutput,
  example: {
    params: { sym: 'ETH' },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ params, query }, ctx) =>
    getAssetIdea(ctx.deps.market, params.sym, query.basis, ctx.deps.clock()),
})
