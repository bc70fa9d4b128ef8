import { z } from 'zod'
import { MAX_SLIPPAGE_BPS } from '../analytics/minOutAfterSlippage.js'
import { wallet } from '../chain/fields.js'

/** Fields every builder body may take. */

/** Every builder's signer. */
export const owner = wallet.describe('The wallet that signs and broadcasts the steps')

/** slippageBps: integer basis points in 0..max, default 100 (1%). */
export const slippageBpsBody = (max = MAX_SLIPPAGE_BPS) =>
  z
    .number()
    .int()
    .min(0)
    .max(max)
    .default(100)
    .describe(`Slippage tolerance in basis points, 0..${max}, default 100`)
