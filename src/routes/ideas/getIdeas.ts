import { getIdeas, ideasOutput, ideasQuery } from '../../market/ideas/getIdeas.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'
import { IDEA_RULES } from '../shared/ideaRules.js'

export const getIdeasRoute = defineRoute({
  id: 'getIdeas',
  method: 'GET',
  path: '/v1/ideas',
  priceUsd: PRICES.getIdeas,
  errors: ['unknown_symbol', 'upstream_not_found'],
  tier: 'alpha',
  summary: 'Ranked leverage ideas',
  description: prose`
    Ranked leverage ideas over \`symbols\` (at most 20; default the 20 listed majors: BTC, ETH, SOL, XRP,
    BNB, DOGE, ADA, LINK, AVAX, LTC, EUR, GBP, AUD, XAU, XAG, WTI, SPY, QQQ, NVDA, TSLA), one read per
    market, all read concurrently. ${IDEA_RULES} Listing (\`worthwhileness\`): strict (default) keeps ideas
    with edge ≥ 0.008 and at most one per direction per category (the first in ranking order); loose keeps
    every idea with edge > 0. (The spec writes strict = 0.008 and loose = 0.01: 0.008 is strict’s threshold;
    0.01 is this endpoint’s price, since a higher threshold could not give loose its fuller field.)

    Ranking (\`ranking\`): edge-rate (default) = edge × leverage ÷ holding time (16 bars, the random-walk
    time to a target 4 ATR away; the same for every idea of one basis, so the order is that of edge ×
    leverage), ties by the conviction order; conviction = conviction, then edge, then symbol, then
    pairIndex. Then the first \`limit\` (1..12, default 6).

    Ideas come in the list form (target, liquidation and edge null: GET /v1/ideas/asset/{sym} adds them;
    \`open.tp\` is the target). Every asked market is in \`ideas\` or in \`skipped\`, exactly once, with why:
    \`skipped.neutral\` (no_trend, stop_too_wide), \`skipped.insufficientHistory\`, \`skipped.unknown\`,
    \`skipped.unavailable\`, or \`skipped.filtered\`, an idea the listing leaves out, with its \`reason\`:
    edge_below_threshold (with its \`edge\` and the \`threshold\`, also the answer’s \`minEdge\`: 0.008 strict,
    0 loose), category_direction_taken (strict’s cap; \`keptBy\` ranked first) or beyond_limit (\`rank\`, its
    place without the limit). Tickers without a listed pair are in \`skipped.unknown\`; all unknown is 400
    \`unknown_symbol\` naming \`symbols\`, and no price or bar for any is 502; neither is charged. Reference
    price $0.01; the spec also lists strict at $0.008.`,
  input: {
    query: ideasQuery,
  },
  output: ideasOutput,
  example: {
    query: { symbols: 'BTC,ETH,SOL', limit: '2', worthwhileness: 'strict' },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ query }, ctx) => getIdeas(ctx.deps.market, query, ctx.deps.clock()),
})
