/**
 * Leveraged trades on the perp venue (gTrade v10 on Base, USDC collateral index 1): the error text the
 * POST /v1/tx/risk/* descriptions share (the body fields are in builders/riskFields.ts).
 */
import { prose } from '../../prose.js'
import type { ErrorCode } from './errorCodes.js'

export const COMMON = prose`
  Every error is answered before anything is charged: 400 \`invalid_input\` naming the field for a malformed
  body; 422 \`simulation_reverted\` (decoded venue error) when the bundle, simulated in order from
  \`owner\`, reverts; 502 when the chain cannot be read.`

/** The pair's live leverage bounds, checked wherever a leverage is set (open, modify). */
export const LEVERAGE_ERRORS = [
  'leverage_above_max',
  'leverage_below_min',
] as const satisfies readonly ErrorCode[]
