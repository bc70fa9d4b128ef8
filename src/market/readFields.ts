/**
 * Output fields the data reads share: USD values, the block a read was taken at, token references and
 * yearly rates.
 */
import { z } from 'zod'
import { address, unixSeconds } from '../chain/fields.js'

export const usdOrNull = z
  .number()
  .nullable()
  .describe('USD value; null when no reliable price exists (never a fake 0)')

export const readAt = z
  .object({ number: z.number().int().nonnegative(), timestamp: unixSeconds })
  .describe('The block every value was read at (answers are cached up to 15 s)')

export const tokenRef = z.object({ address, symbol: z.string(), decimals: z.number().int() })

export const yearlyFraction = (what: string) => z.number().describe(`${what}, a yearly fraction (0.05 = 5%)`)
