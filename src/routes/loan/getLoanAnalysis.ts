import { getAddress } from 'viem'
import { z } from 'zod'
import { address } from '../../chain/fields.js'
import { getLoanAnalysis, loanAnalysisOutput } from '../../market/loan/getLoanAnalysis.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const getLoanAnalysisRoute = defineRoute({
  id: 'getLoanAnalysis',
  method: 'GET',
  path: '/v1/loan/analysis/{address}',
  priceUsd: PRICES.getLoanAnalysis,
  errors: [],
  tier: 'alpha',
  summary: 'Borrow-position risk analysis',
  description: prose`
    For each borrow of \`address\` (Morpho Blue catalog markets, the Aave v3 account as one position, Morpho
    Midnight fixed-rate debts), read live as /v1/positions reads them (debt accrued to \`asOf\`):

    health factor = maxBorrow ÷ debt with maxBorrow = ⌊⌊collateral × oracle price ÷ 1e36⌋ × lltv ÷ 1e18⌋
    (Aave: its own percentMul/wadDiv over getUserAccountData); status liquidatable when health ≤ 1
    (liquidation is permissionless, no grace period);

    liquidation price (the oracle price at health 1; Aave: the collateral USD value at health 1, as
    \`liquidationDistancePct\`);

    time to liquidation from interest alone at today’s rate with the price held: ⌊ln(maxBorrow ÷ debt) ÷ r⌋
    seconds (r = per-second rate; null for fixed-rate debt or a 0 rate; 0 when liquidatable);

    a stress table at the collateral price −10/−20/−30% (Aave: the collateral value);

    and the least repay or collateral that restores \`targetHealth\` (default 1.5), exact at asOf, each with
    the matching builder (/v1/tx/loan/repay and /v1/tx/loan/supply-collateral for Morpho Blue,
    /v1/tx/fixed/repay and /v1/tx/fixed/supply-collateral for Midnight) and a body whose amount is computed
    for the debt one hour later at today’s rate (plus 2 atomic units of Morpho share rounding on repay), so
    it still reaches the target when included within the hour. Aave amounts are in USD (× 1e8) with no
    builder.

    A Midnight debt with several collaterals has no single liquidation price and is listed in \`skipped\`.
    Indicative, not advice.`,
  input: {
    params: z.object({ address }),
    query: z.object({
      targetHealth: z.coerce
        .number()
        .gt(1, 'targetHealth must be above 1')
        .max(100, 'targetHealth must be at most 100')
        .default(1.5)
        .describe('The health factor the restore amounts reach (above 1, at most 100; default 1.5)'),
    }),
  },
  output: loanAnalysisOutput,
  // Demo account #1 (a Morpho Blue and a Midnight debt). At the default target health nothing needs
  // restoring: a target above its health would add restore amounts and builder bodies for both debts, and
  // the 402 header carrying the example would pass what HTTP clients accept (test/payments/x402Extensions).
  example: {
    params: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
    output: exampleOutput(import.meta.url),
  },
  handler: (input, ctx) =>
    getLoanAnalysis(
      { chain: ctx.deps.chain, lending: ctx.deps.lending, market: ctx.deps.market },
      getAddress(input.params.address),
      ctx.deps.clock(),
      input.query.targetHealth,
    ),
})
