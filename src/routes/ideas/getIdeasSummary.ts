import { z } from 'zod'
import { ideaBasis } from '../../analytics/ideaFromBars.js'
import { getIdeasSummary, summaryOutput } from '../../market/getIdeasSummary.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'
import { IDEA_RULES } from '../shared/ideaRules.js'

export const getIdeasSummaryRoute = defineRoute({
  id: 'getIdeasSummary',
  method: 'GET',
  path: '/v1/ideas/summary',
  priceUsd: PRICES.getIdeasSummary,
  errors: ['upstream_not_found'],
  tier: 'alpha',
  summary: 'Market-wide aggregate of ideas',
  description: prose`
    One read per market of the default universe (the 20 listed majors of GET /v1/ideas, all five
    categories), aggregated: \`bestLong\` / \`bestShort\` = the best long / short idea in the conviction
    order (conviction, then edge, symbol, pairIndex), with no worthwhileness filter; \`topByCategory\` = the
    best idea of each category that has one; \`breadth\` = how many markets read long, short or neutral
    (markets short of history count in none; see \`skipped\`). Ideas in the list form. ${IDEA_RULES}`,
  input: { query: z.object({ basis: ideaBasis }) },
  output: summaryOutput,
  example: { output: exampleOutput(import.meta.url) },
  handler: async ({ query }, ctx) => getIdeasSummary(ctx.deps.market, query.basis, ctx.deps.clock()),
})
