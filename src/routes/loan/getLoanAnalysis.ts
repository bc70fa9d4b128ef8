import { getAddress } from 'viem'
import { z } from 'zod'
import { address, atomicAmount, marketId, unixSeconds } from '../../chain/fields.js'
import { getLoanAnalysis } from '../../market/getLoanAnalysis.js'
import { sourceStatus } from '../../market/sourceStatus.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { LOAN_ANALYSIS_EXAMPLE } from '../shared/walletExamples.js'

const builderCall = z
  .object({ method: z.literal('POST'), path: z.string(), body: z.record(z.string(), z.string()) })
  .nullable()
  .describe(
    'The builder that performs this step and its exact body (amount covers one more hour of interest); null for Aave (no builder)',
  )

const restoreStep = z
  .object({
    assets: atomicAmount.describe(
      'The least amount (atomic; Aave: USD × 1e8) that restores the target at asOf',
    ),
    healthFactorAfter: z.number().nullable(),
    builder: builderCall,
  })
  .nullable()

export const getLoanAnalysisRoute = defineRoute({
  id: 'getLoanAnalysis',
  method: 'GET',
  path: '/v1/loan/analysis/{address}',
  priceUsd: PRICES.getLoanAnalysis,
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
  output: z.object({
    address,
    block: z.object({ number: z.number().int().nonnegative(), timestamp: unixSeconds }).nullable(),
    asOf: unixSeconds
      .nullable()
      .describe('The time debts are accrued to: the later of the block time and now'),
    targetHealth: z.number(),
    positions: z.array(
      z.object({
        protocol: z.enum(['morpho-blue', 'aave-v3', 'morpho-midnight']),
        marketId: marketId.nullable(),
        collateralToken: address.nullable(),
        collateralSymbol: z.string().nullable(),
        collateral: atomicAmount.nullable(),
        loanToken: address.nullable(),
        loanSymbol: z.string().nullable(),
        debt: atomicAmount.nullable(),
        collateralUsd: z.number().nullable(),
        debtUsd: z.number().nullable(),
        healthFactor: z.number().nullable(),
        status: z.enum(['solvent', 'liquidatable']),
        price: z.number().nullable().describe('Oracle price, loan tokens per whole collateral token'),
        liquidationPrice: z.number().nullable(),
        liquidationDistancePct: z
          .number()
          .nullable()
          .describe('How far the collateral must fall, %; ≤ 0 when liquidatable'),
        timeToLiquidationSec: z.number().nullable(),
        borrowApy: z.number().nullable(),
        stress: z.array(
          z.object({
            priceChangePct: z.number(),
            price: z.number().nullable(),
            collateralUsd: z.number().nullable(),
            healthFactor: z.number().nullable(),
            liquidatable: z.boolean(),
          }),
        ),
        restore: z.object({ targetHealth: z.number(), repay: restoreStep, supplyCollateral: restoreStep }),
        advice: z.string(),
      }),
    ),
    skipped: z.array(z.object({ protocol: z.string(), marketId, reason: z.string() })),
    sources: z.object({ lending: sourceStatus, midnight: sourceStatus }),
  }),
  example: LOAN_ANALYSIS_EXAMPLE,
  handler: (input, ctx) =>
    getLoanAnalysis(
      { chain: ctx.deps.chain, lending: ctx.deps.lending, market: ctx.deps.market },
      getAddress(input.params.address),
      ctx.deps.clock(),
      input.query.targetHealth,
    ),
})
