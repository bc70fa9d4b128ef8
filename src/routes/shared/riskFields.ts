/**
 * Leveraged trades on the perp venue (gTrade v10 on Base, USDC collateral index 1): the body fields and the
 * error text the POST /v1/tx/risk/* builders share.
 */
import { z } from 'zod'
import { nonNegative } from './fields.js'
import { prose } from './prose.js'

export const positiveInt = z.number().int().min(0)

/**
 * The venue's integer fields bound what a human number may be: a price is a uint64 x1e10 (at most
 * 1844674407.37…), leverage a uint24 x1e3 (16777.215), a trade index a uint32, a pair a uint16. Past them
 * the calldata cannot be encoded (a 500 or a 502, not the caller's 400); below 1e-10 a price encodes to 0,
 * which the venue reads as "none" (a TP or SL) or refuses (a price).
 */
export const MAX_PRICE = 1_844_674_407

export const MIN_PRICE = 1e-10

/** Far above USDC's supply, and below 1e21, where a number prints in exponent notation. */
export const MAX_USDC = 1e12

export const PRICE_RANGE = prose`
  must lie within ${MIN_PRICE}..${MAX_PRICE} (the venue holds prices as uint64 x1e10).`

export const tradeIndex = positiveInt
  .max(2 ** 32 - 1, { error: 'must fit the venue’s uint32 trade index.' })
  .describe(
    'The venue’s trade index for this wallet (`index` in GET /v1/positions/{address} and /v1/pending-orders/{address}), not a position in a list',
  )

export const leverage = z
  .number()
  .min(1.1)
  .max(16_777, { error: 'must be at most 16777 (the venue holds leverage as uint24 x1e3).' })
  .describe('Human leverage, >= 1.1 and within the pair’s live min/max (sent x1e3, rounded to 0.001)')

export const price = z
  .number()
  .min(MIN_PRICE, { error: PRICE_RANGE })
  .max(MAX_PRICE, { error: PRICE_RANGE })
  .describe(`Human price in USD (sent x1e10), ${MIN_PRICE}..${MAX_PRICE}`)

export const tpSl = (what: string) =>
  nonNegative
    .max(MAX_PRICE, { error: PRICE_RANGE })
    .refine((v) => v === 0 || v >= MIN_PRICE, {
      error: `must be 0 (none) or at least ${MIN_PRICE}: a smaller price encodes to 0, which the venue reads as none.`,
    })
    .describe(`Human ${what} price (sent x1e10); 0 or absent = none`)

export const slippagePct = z
  .number()
  .min(0.001)
  .max(50)
  .default(1)
  .describe('Max slippage in percent, 0.001..50 (sent as maxSlippageP x1e3: 1 = 1000), default 1')

export const COMMON = prose`
  Every error is answered before anything is charged: 400 \`invalid_input\` naming the field for a malformed
  body; 422 \`simulation_reverted\` (decoded venue error) when the bundle, simulated in order from
  \`owner\`, reverts; 502 when the chain cannot be read.`
