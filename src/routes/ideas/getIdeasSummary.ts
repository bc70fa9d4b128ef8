import { getIdeasSummary, summaryOutput, summaryQuery } from '../../market/ideas/getIdeasSummary.js'
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
    categories), aggregated at the edge threshold of \`worthwhileness\` (strict, the default: edge ≥ 0.008;
    loose: edge > 0; GET /v1/ideas’s filter, without its one idea per category and direction or its limit):
    \`eligible\` = the markets whose idea passes it; \`bestLong\` / \`bestShort\` = the best eligible long /
    short idea in the conviction order (conviction, then edge, symbol, pairIndex); \`topByCategory\` = the
    best eligible idea of each category that has one; \`breadth\` = how many markets read long, short or
    neutral, whatever their edge (markets short of history count in none). Every market is in
    \`eligible\` or in \`skipped\`, exactly once; an idea under the threshold is in \`skipped.filtered\` as
    edge_below_threshold, with its edge and the threshold (\`minEdge\`). Changed in issue 36: the picks
    were drawn from every idea whatever its edge, so a negative edge could be \`bestLong\`; pass
    worthwhileness=loose for the widest field a threshold allows. Ideas in the list form. ${IDEA_RULES}`,
  input: { query: summaryQuery },
  output: summaryOutput,
  example: { output: exampleOutput(import.meta.url) },
  handler: async ({ query }, ctx) => getIdeasSummary(ctx.deps.market, query, ctx.deps.clock()),
})
