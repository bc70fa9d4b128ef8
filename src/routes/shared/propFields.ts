/**
 * The prop desk's action id, params and example (POST /v1/prop/quote and /v1/prop/execute).
 */
import { z } from 'zod'
import { PROP_ACTIONS } from '../../prop/planAction.js'

/** The desk's actions (src/prop/planAction.ts): trade.open and trade.close on the perp venue. */
export const actionId = z.enum(PROP_ACTIONS, {
  error: 'must be a known prop action: trade.open or trade.close.',
})

export const propParams = z
  .record(z.string(), z.unknown())
  .describe(
    'The action’s parameters. trade.open: the risk/open body without owner (the desk trades from its own wallet; MARKET only). trade.close: { positionId, expectedPrice }',
  )

/** The trade.open parameters both prop examples use (the risk/open body, without owner). */
export const tradeOpenExample = {
  pairIndex: 1,
  long: true,
  leverage: 5,
  collateralUsdc: 100,
  markPrice: 3012.7,
  tp: 3195.5,
  sl: 2921.3,
}
