import { formatUnits } from 'viem'
import { BuildRefusedError } from './builderErrors.js'
import { LEVERAGE_DECIMALS, PRICE_DECIMALS } from './riskMath.js'
import type { RiskPair } from './riskState.js'

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
