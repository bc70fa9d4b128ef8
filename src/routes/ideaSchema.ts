import { z } from 'zod'
import { symbol } from './fields.js'

/** The body fields of POST /v1/tx/risk/open that act on an idea, pre-filled. */
export const riskOpenInputs = z.object({
  pairIndex: z.number().int(),
  long: z.boolean(),
  leverage: z.number(),
  markPrice: z.number(),
  tradeType: z.literal(0),
  tp: z.number(),
  sl: z.number(),
})

/** A ranked leverage idea. Single-asset reads also fill target, liquidation and edge. */
export const idea = z.object({
  symbol,
  pairIndex: z.number().int(),
  category: z.string(),
  direction: z.enum(['long', 'short']),
  entry: z.number(),
  stop: z.number(),
  target: z.number().nullable(),
  liquidation: z.number().nullable(),
  edge: z.number().nullable(),
  leverage: z.number().describe('Suggested range-survival leverage, capped at the pair maximum'),
  maxLeverage: z.number(),
  conviction: z.number(),
  open: riskOpenInputs.describe('Inputs for POST /v1/tx/risk/open (add collateralUsdc and owner)'),
})
