import { alphaOutput, alphaQuery, getAlpha } from '../../market/alpha/getAlpha.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const getAlphaRoute = defineRoute({
  id: 'getAlpha',
  method: 'GET',
  path: '/v1/alpha',
  priceUsd: PRICES.getAlpha,
  errors: ['unknown_symbol', 'upstream_not_found'],
  tier: 'alpha',
  summary: 'One-call bundle: arbitrage, ideas, signals and summary',
  description: prose`
    One call, read concurrently: \`ideas\` and \`skipped\` = GET /v1/ideas over \`symbols\` (at most 20;
    default the 20 listed majors) with worthwhileness strict, ranking edge-rate, basis 1d-1y and \`limit\`
    (1..12, default 6): every asked market is in \`ideas\` or \`skipped\`, exactly once, with why (an idea
    left out is in \`skipped.filtered\`: edge_below_threshold with its edge and the 0.008 threshold,
    category_direction_taken or beyond_limit); \`summary\` = GET /v1/ideas/summary over the same reads at the
    same strict threshold (so over \`symbols\`, not only the default universe), plus
    \`summary.notInIdeas\`: its picks that \`ideas\` does not list, with the reason; \`signals\` = GET
    /v1/signals (USD) for the first 10 of \`symbols\`, each with its bias and conviction; \`arbitrage\` =
    GET /v1/arbitrage for \`target\`, \`budget\`, \`taker\` and \`slippageBps\`, skipped (null, with
    \`arbitrageSkipped\` saying why) when \`taker\` is omitted.

    All symbols unknown to the perp venue is 400 \`unknown_symbol\` naming \`symbols\`; any section’s
    upstream failing is 502 (the bundle is all or nothing); neither is charged. Reference price $0.01; the
    machine-readable description of the spec lists $0.02. Indicative, not advice.`,
  input: {
    query: alphaQuery,
  },
  output: alphaOutput,
  // Without `taker` the arbitrage section is skipped: that keeps this example (it travels in the 402 header) small.
  example: {
    query: { symbols: 'BTC,ETH,SOL', limit: '1' },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ query }, ctx) => getAlpha(ctx.deps.chain, ctx.deps.market, query, ctx.deps.clock()),
})
