import { z } from 'zod'
import { ideaBasis } from '../../analytics/ideaFromBars.js'
import { symbol } from '../../chain/fields.js'
import { getIdeasCompare, ideasCompareOutput } from '../../market/ideas/getIdeasCompare.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'
import { IDEA_RULES } from '../shared/ideaRules.js'

export const getIdeasCompareRoute = defineRoute({
  id: 'getIdeasCompare',
  method: 'GET',
  path: '/v1/ideas/compare',
  priceUsd: PRICES.getIdeasCompare,
  errors: ['unknown_instrument', 'upstream_not_found'],
  tier: 'alpha',
  summary: 'Relative-strength pair read of two symbols',
  description: prose`
    Relative strength of \`a\` against \`b\` over the basis bars both legs have (joined on bar time: a bar
    missing from either leg is dropped from both), plus each leg’s own read in the single-asset form.

    Over the n common bars, x = ln(close a ÷ close b): \`ratio\` = last a ÷ last b; \`relativeStrength\` =
    a’s return minus b’s over the window, percent; the ratio’s trend: slope = the least-squares slope of x
    against the bar number, \`ratioSlopePctPerBar\` = (e^slope − 1) × 100, \`ratioTrend\` up / down when
    |slope| × (n − 1) ≥ σx, else flat; \`zScore\` = (last x − mean x) ÷ σx (population σ; null for a flat
    ratio); \`correlation\` = Pearson of the legs’ log returns (null when a leg is flat); \`suggestion\`
    (mean reversion) long b / short a at z ≥ 2, long a / short b at z ≤ −2, else null. Fewer than 20 common
    bars: status insufficient_history with \`needed\` and the pair figures null. A leg’s \`worthwhile\` says
    whether its idea’s edge passes the listings’ thresholds (strict edge ≥ 0.008, loose edge > 0): an idea
    with strict false is one GET /v1/ideas and /v1/alpha list in \`skipped.filtered\` as edge_below_threshold.
    Each leg: ${IDEA_RULES} a =
    b is 400 naming \`b\`; a ticker without a listed pair is 404 \`unknown_instrument\` naming \`a\` or
    \`b\`; not charged.`,
  input: { query: z.object({ a: symbol, b: symbol, basis: ideaBasis }) },
  output: ideasCompareOutput,
  example: {
    query: { a: 'ETH', b: 'BTC' },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ query }, ctx) => getIdeasCompare(ctx.deps.market, query, ctx.deps.clock()),
})
