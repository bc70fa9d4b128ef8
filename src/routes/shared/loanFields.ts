/**
 * The description parts and the example market the Morpho Blue loan builders (POST /v1/tx/loan/*) share (the
 * body and action fields are in builders/loanPositionFields.ts).
 */
import { prose } from '../../prose.js'
import type { ErrorCode } from './errorCodes.js'

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

/** The market checks of LOAN_COMMON: every loan builder's codes (`unlisted_target` is the engine's, implied). */
export const LOAN_ERRORS = [
  'unlisted_market',
  'unknown_market',
  'market_id_mismatch',
  'idle_market',
] as const satisfies readonly ErrorCode[]

export const UNHEALTHY = prose`
  Refused before simulating when the position would be left with health ≤ 1 (debt at or above collateral ×
  price × LLTV): 422 \`unhealthy_after\` naming \`assets\`, details \`healthFactor\` (number),
  \`healthFactorWad\`, \`debtAfter\`, \`maxBorrowAfter\`, \`oraclePrice\`, \`accruedTo\`, \`blockNumber\`.`

export const EXAMPLE_MARKET = '0xd490e1596fe156525ba0564974c4069ea03907a81298ab87c889beddaab4e413'
