import { z } from 'zod'
import { SYMBOL } from '../chain/fields.js'

/**
 * Query fields of the reads: query strings are text, so numbers arrive as digits and are coerced, then
 * range-checked (the input layer refuses a non-decimal number first); ticker lists, asset classes and
 * timeframes. The chain values (addresses, atomic amounts, ids, tickers) are in chain/fields.ts.
 */

/** Query strings are text: numbers arrive as digits and are coerced, then range-checked. */
export const queryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max)
export const queryNumber = (min: number) => z.coerce.number().min(min)

/**
 * A comma-separated ticker list with at most `max` entries. The pattern carries the count limit into the
 * JSON Schema, because the array it becomes after the split is invisible to documents.
 */
export function symbolList(max: number) {
  return z
    .string()
    .regex(new RegExp(`^${SYMBOL}(,${SYMBOL}){0,${max - 1}}$`), {
      error: `must be a comma-separated list of 1 to ${max} tickers, e.g. BTC,ETH.`,
    })
    .describe(`Comma-separated tickers, at most ${max}`)
    .transform((s) => [...new Set(s.split(','))])
}

/** slippageBps in a query: integer basis points in 0..max, default 100 (1%). */
export const slippageBpsQuery = (max: number) =>
  queryInt(0, max).default(100).describe(`Slippage tolerance in basis points, 0..${max}, default 100`)

export const assetClass = z
  .enum(['Commodities', 'Indices', 'Forex', 'Stocks'])
  .describe('Asset class for non-crypto symbols')
export const candleClass = z.enum(['Commodities', 'Indices', 'Forex', 'Stocks', 'Crypto'])

/** TA timeframe: seconds (60, 300, 900, 3600, 86400) or the labels 1m, 5m, 15m, 1H, 1D. */
export const granularity = z
  .enum(['60', '300', '900', '3600', '86400', '1m', '5m', '15m', '1H', '1D'])
  .default('900')
  .transform((g) => GRANULARITY_SECONDS[g] as number)
  .describe('Timeframe: 60|300|900|3600|86400 seconds or 1m|5m|15m|1H|1D; default 900')

const GRANULARITY_SECONDS: Record<string, number> = {
  '60': 60,
  '300': 300,
  '900': 900,
  '3600': 3600,
  '86400': 86400,
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1H': 3600,
  '1D': 86400,
}
