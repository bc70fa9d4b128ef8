/**
 * What the liquidity builders (POST /v1/tx/lp/aero/* and /v1/tx/lp/uni/*) share.
 */
import { z } from 'zod'
import { address } from './fields.js'
import { prose } from './prose.js'

export const aeroPair = {
  tokenA: address.describe(
    'A listed ERC-20, or native ETH as 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE (the token/WETH pool, through the router’s ETH variants)',
  ),
  tokenB: address.describe('The other listed ERC-20 (or native ETH, on one side at most)'),
}

export const nativeSide = z
  .enum(['tokenA', 'tokenB'])
  .nullable()
  .describe(
    'The body side given as native ETH (the router wraps or unwraps it against the WETH pool), or null for two ERC-20s',
  )

/** Errors every liquidity builder shares, for the descriptions. */
export const COMMON_ERRORS = prose`
  Errors: 400 invalid_input naming the field (a malformed or zero amount, slippageBps outside 0..5000,
  native ETH where a builder takes none, the same token twice); 422 unlisted_target (a token outside the
  address book), not_a_token, insufficient_balance, simulation_reverted (the bundle reverts when simulated
  from the owner, with the decoded reason). Nothing is charged unless the answer is 200.`

export const MINS =
  'Mins are the quoted amounts less slippageBps (rounded down); the deadline in calldata is `expiresAt`.'
