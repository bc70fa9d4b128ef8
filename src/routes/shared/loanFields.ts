/**
 * The body, action fields, description parts and example values the Morpho Blue loan builders
 * (POST /v1/tx/loan/*) share.
 */
import { z } from 'zod'
import { owner } from './builder.js'
import { address, atomicAmount, marketId, positiveAtomicAmount } from './fields.js'
import { prose } from './prose.js'

export const loanBody = z.strictObject({
  marketId: marketId.describe(
    'Morpho Blue market id (0x + 64 hex): its params are read from the chain and the id re-derived from them',
  ),
  assets: positiveAtomicAmount,
  owner,
})

/** The market id and amount every loan action echoes, and the owner's position after the bundle. */
export const loanActionFields = {
  marketId: marketId.describe('The market, lowercase'),
  assets: atomicAmount.describe('As asked'),
  loanToken: address.describe('The market’s loan token'),
  collateralToken: address.describe('The market’s collateral token'),
  accruedTo: z
    .number()
    .int()
    .describe(
      'Unix seconds (the timestamp of the block the state was read at, which is also the simulation’s `blockNumber`) the debt figures include interest up to',
    ),
  oraclePrice: atomicAmount
    .nullable()
    .describe(
      'The market oracle’s price: loan-token units per collateral unit × 1e36 (decimals included); null when the oracle does not answer (supply only)',
    ),
  collateralAfter: atomicAmount.describe('The owner’s collateral after the bundle (atomic collateral token)'),
  borrowSharesAfter: atomicAmount.describe('The owner’s borrow shares after the bundle, at the quote'),
  debtAfter: atomicAmount.describe(
    'The debt after the bundle (atomic loan token): borrow shares to assets, rounded up, with interest accrued to `accruedTo`',
  ),
  maxBorrowAfter: atomicAmount
    .nullable()
    .describe(
      'collateralAfter × oraclePrice / 1e36 × LLTV: the most the position may owe before Morpho refuses it (atomic loan token); null without a price',
    ),
  healthAfter: z
    .number()
    .nullable()
    .describe(
      'maxBorrowAfter / debtAfter; liquidatable at or below 1; null without debt (or without a price)',
    ),
}

export const LOAN_COMMON = prose`
  \`marketId\` must be one of the catalog markets GET /v1/loan/markets lists (422 \`unlisted_market\`
  otherwise: anyone can create a Morpho market on listed tokens with an oracle they control); it is read
  from Morpho Blue (\`idToMarketParams\`) and the id re-derived from the params (cached once verified:
  params are immutable); an id that is not a market, does not re-derive or is idle is 422
  (\`unknown_market\`, \`market_id_mismatch\`, \`idle_market\`) naming \`marketId\`, as is a market whose
  tokens are outside the address book (\`unlisted_target\`). The action reports the position after the
  bundle, with the debt accrued (by Morpho’s own accrueInterest, in the read multicall) to the latest block:
  \`collateralAfter\`, \`borrowSharesAfter\`, \`debtAfter\`, \`maxBorrowAfter\`, \`healthAfter\`,
  \`accruedTo\`, \`oraclePrice\`.`

export const UNHEALTHY = prose`
  Refused before simulating when the position would be left with health ≤ 1 (debt at or above collateral ×
  price × LLTV): 422 \`unhealthy_after\` naming \`assets\`, details \`healthFactor\` (number),
  \`healthFactorWad\`, \`debtAfter\`, \`maxBorrowAfter\`, \`oraclePrice\`, \`accruedTo\`, \`blockNumber\`.`

export const EXAMPLE_MARKET = '0xd490e1596fe156525ba0564974c4069ea03907a81298ab87c889beddaab4e413'

export const EXAMPLE_TOKENS = {
  loanToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  collateralToken: '0x4200000000000000000000000000000000000006',
  accruedTo: 1795409938,
  oraclePrice: '3000000000000000000000000000',
} as const
