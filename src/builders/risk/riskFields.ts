import { formatUnits } from 'viem'
import { z } from 'zod'
import { nonNegative } from '../../chain/fields.js'
import { prose } from '../../prose.js'
import { BuildRefusedError } from '../builderErrors.js'
import { LEVERAGE_DECIMALS, PRICE_DECIMALS } from './riskMath.js'
import type { RiskPair } from './riskState.js'

/**
 * What the perp builders (POST /v1/tx/risk/*) share: the body fields, with the venue's integer limits, and
 * the helpers of their refusals and messages.
 */

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

/** How step descriptions name the diamond. */
export const VENUE_NAME = 'the perp venue'

/** An atomic amount as a human number (for messages and action fields). */
export const human = (value: bigint, decimals: number): number => Number(formatUnits(value, decimals))
/** A 1e10 price as a human number. */
export const humanPrice = (value: bigint): number => human(value, PRICE_DECIMALS)

/** The pair's live leverage bounds: 422 naming `field`, with the bound in the details. */
export function assertLeverageInRange(pair: RiskPair, leverage: bigint, field: string): void {
  const max = human(pair.maxLeverage, LEVERAGE_DECIMALS)
  const min = human(pair.minLeverage, LEVERAGE_DECIMALS)
  if (leverage > pair.maxLeverage)
    throw new BuildRefusedError(
      'leverage_above_max',
      `${field} ${human(leverage, LEVERAGE_DECIMALS)} is above ${pair.name}'s maximum of ${max}x.`,
      field,
      { maxLeverage: max },
    )
  if (leverage < pair.minLeverage)
    throw new BuildRefusedError(
      'leverage_below_min',
      `${field} ${human(leverage, LEVERAGE_DECIMALS)} is below ${pair.name}'s minimum of ${min}x.`,
      field,
      { minLeverage: min },
    )
}

/** The owner has no open trade (MARKET, filled) at `index`. */
export function tradeNotFound(index: number, what: string): BuildRefusedError {
  return new BuildRefusedError(
    'trade_not_found',
    `The owner has no ${what} at index ${index} (GET /v1/positions/{address} lists trades, /v1/pending-orders/{address} resting orders).`,
    'index',
    { index },
  )
}
