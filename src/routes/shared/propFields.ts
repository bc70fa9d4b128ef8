/**
 * The prop desk's action id, params and example (POST /v1/prop/quote and /v1/prop/execute).
 */
import { z } from 'zod'

/** Known prop actions. Only trade.open is specified; more join this list as the desk grows. */
export const actionId = z.enum(['trade.open'], { error: 'must be a known prop action: trade.open.' })

export const propParams = z
  .record(z.string(), z.unknown())
  .describe('The action’s parameters (trade.open: the risk/open body)')

/** The trade.open parameters both prop examples use (the risk/open body). */
export const tradeOpenExample = {
  pairIndex: 1,
  long: true,
  leverage: 5,
  collateralUsdc: 100,
  markPrice: 3012.7,
  tp: 3195.5,
  sl: 2921.3,
  owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
}
