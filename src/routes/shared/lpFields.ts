/**
 * The description text the liquidity builders (POST /v1/tx/lp/aero/* and /v1/tx/lp/uni/*) share.
 */
import { prose } from '../../prose.js'
import type { ErrorCode } from './errorCodes.js'

/** Errors every liquidity builder shares, for the descriptions. */
export const COMMON_ERRORS = prose`
  Errors: 400 invalid_input naming the field (a malformed or zero amount, slippageBps outside 0..5000,
  native ETH where a builder takes none, the same token twice); 422 unlisted_target (a token outside the
  address book), not_a_token, insufficient_balance, simulation_reverted (the bundle reverts when simulated
  from the owner, with the decoded reason). Nothing is charged unless the answer is 200.`

/** The position checks of the Uniswap builders that act on an existing position (remove, collect). */
export const POSITION_ERRORS = [
  'position_not_found',
  'not_position_owner',
] as const satisfies readonly ErrorCode[]

export const MINS =
  'Mins are the quoted amounts less slippageBps (rounded down); the deadline in calldata is `expiresAt`.'
