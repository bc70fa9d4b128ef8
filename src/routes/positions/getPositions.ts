import { getAddress } from 'viem'
import { z } from 'zod'
import { address, atomicAmount, marketId, unixSeconds } from '../../chain/fields.js'
import { getPositions } from '../../market/getPositions.js'
import { sourceStatus } from '../../market/sourceStatus.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { walletParams } from '../shared/readFields.js'
import { POSITIONS_EXAMPLE } from '../shared/walletExamples.js'

const healthFields = {
  healthFactor: z
    .number()
    .nullable()
    .describe('maxBorrow ÷ debt (see description); null with no debt or no oracle price'),
  liquidatable: z.boolean().describe('Health factor ≤ 1'),
  price: z.number().nullable().describe('Oracle price, loan tokens per whole collateral token'),
  liquidationPrice: z.number().nullable().describe('Oracle price at health 1'),
  liquidationDistancePct: z
    .number()
    .nullable()
    .describe('% the collateral may fall before liquidation; ≤ 0 when liquidatable'),
}

export const getPositionsRoute = defineRoute({
  id: 'getPositions',
  method: 'GET',
  path: '/v1/positions/{address}',
  priceUsd: PRICES.getPositions,
  tier: 'data',
  summary: 'Open borrow, vault, leveraged-trade and fixed-rate positions',
  description: prose`
    Every open position of \`address\`, read live from the chain, by source (run concurrently; each source’s
    outcome in \`sources\`, a failed one empties only its section; when lending, gTrade and Midnight all
    fail: 502, nothing charged).

    \`borrows\`: Morpho Blue borrows in the service’s catalog markets (/v1/loan/markets): collateral and
    debt (atomic), debt = the borrow shares converted with the market totals accrued to \`asOf\` (Morpho’s
    own third-order Taylor accrual at the IRM’s borrowRateView, rounded up), health factor and liquidation
    price from the market oracle.

    \`aave\`: Aave v3 account (Pool.getUserAccountData accrued to \`asOf\`, USD at Aave’s oracle) with the
    supplied and borrowed amounts per catalog reserve; null when the wallet has none.

    \`vaults\`: catalog vault deposits (MetaMorpho, ERC-4626, Aave aTokens): shares, assets (convertToAssets
    at \`asOf\`), the vault’s net APY as /v1/earn/vaults reports it, and earnings since deposit = assets −
    (Σ Deposit assets − Σ Withdraw assets) over the wallet’s ERC-4626 events (Aave: the Pool’s Supply on
    behalf of and Withdraw by the wallet); null with \`earningsNote\` when shares were transferred (the cost
    basis is unknown) or the RPC refuses the log range.

    \`trades\`: open gTrade v10 trades only (tradeType 0). Resting LIMIT/STOP orders are not positions: see
    /v1/pending-orders/{address}. Liquidation price = the diamond’s getTradeLiquidationPrice (protocols.md
    §1, no holding fees); PnL at the Pyth mark (the perp index of /v1/prices), before closing and holding
    fees.

    \`fixed\`: Morpho Midnight positions in the markets the Midnight API lists: credit and debt in units
    (loan-token atomic amounts due at maturity), collateral, and health from the collateral oracle and lltv
    (liquidation price only with one collateral).

    Full risk analysis (stress, time to liquidation, restore amounts): /v1/loan/analysis/{address}.`,
  input: { params: walletParams },
  output: z.object({
    address,
    block: z
      .object({ number: z.number().int().nonnegative(), timestamp: unixSeconds })
      .nullable()
      .describe('The head block every section was read at; null when no chain source answered'),
    asOf: unixSeconds
      .nullable()
      .describe('The time debts and deposits are accrued to: the later of the block time and now'),
    borrows: z.array(
      z.object({
        protocol: z.literal('morpho-blue'),
        marketId,
        collateralToken: address,
        collateralSymbol: z.string(),
        collateral: atomicAmount,
        loanToken: address,
        loanSymbol: z.string(),
        debt: atomicAmount.describe(
          'Loan-token atomic units owed at asOf, interest included (what a full repay costs)',
        ),
        lltv: z.number().describe('Liquidation loan-to-value, a fraction'),
        borrowApy: z.number().describe('e^(borrowRateView × 31,536,000) − 1'),
        ...healthFields,
      }),
    ),
    aave: z
      .object({
        healthFactor: z.number().nullable().describe('Aave’s own healthFactor; null with no debt'),
        totalCollateralUsd: z.number(),
        totalDebtUsd: z.number(),
        liquidationThreshold: z.number().describe('Weighted liquidation threshold, a fraction'),
        ltv: z.number(),
        liquidatable: z.boolean(),
        supplied: z.array(z.object({ asset: address, symbol: z.string(), amount: atomicAmount })),
        borrowed: z.array(z.object({ asset: address, symbol: z.string(), amount: atomicAmount })),
      })
      .nullable(),
    vaults: z.array(
      z.object({
        vault: address.describe('The vault, or the aToken for Aave'),
        protocol: z.enum(['metamorpho', 'erc4626', 'aave-v3']),
        asset: address,
        symbol: z.string(),
        shares: atomicAmount,
        assets: atomicAmount,
        apy: z.number().nullable(),
        earnings: z
          .string()
          .regex(/^-?\d+$/)
          .nullable()
          .describe('Atomic asset units earned since deposit; null when unknown'),
        earningsNote: z.string().nullable(),
      }),
    ),
    trades: z.array(
      z.object({
        index: z.number().int(),
        pairIndex: z.number().int(),
        pair: z.string(),
        long: z.boolean(),
        leverage: z.number(),
        entry: z.number(),
        tp: z.number().nullable(),
        sl: z.number().nullable(),
        collateralUsdc: z.number(),
        sizeUsd: z.number(),
        liquidationPrice: z.number(),
        liquidationDistancePct: z.number().nullable(),
        markPrice: z.number().nullable(),
        pnlUsd: z.number().nullable(),
        pnlPct: z.number().nullable(),
        closingFeeUsd: z.number(),
      }),
    ),
    fixed: z.array(
      z.object({
        protocol: z.literal('morpho-midnight'),
        marketId,
        loanToken: address,
        loanSymbol: z.string(),
        maturity: unixSeconds,
        credit: atomicAmount.describe('Units lent: loan-token atomic amounts owed to the wallet at maturity'),
        debt: atomicAmount.describe('Units borrowed: owed by the wallet at maturity'),
        collaterals: z.array(z.object({ token: address, symbol: z.string(), amount: atomicAmount })),
        ...healthFields,
      }),
    ),
    sources: z.object({
      lending: sourceStatus,
      vaultApy: sourceStatus,
      vaultHistory: sourceStatus,
      gtrade: sourceStatus,
      gtradeMark: sourceStatus,
      midnight: sourceStatus,
    }),
  }),
  example: POSITIONS_EXAMPLE,
  handler: (input, ctx) =>
    getPositions(
      { chain: ctx.deps.chain, lending: ctx.deps.lending, market: ctx.deps.market },
      getAddress(input.params.address),
      ctx.deps.clock(),
    ),
})
