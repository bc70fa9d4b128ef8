/**
 * GET /v1/arbitrage's budget query field, also part of GET /v1/alpha (the target and the output schema
 * are declared with the read, in market/).
 */
import { queryNumber } from './fields.js'

export const budget = queryNumber(0)
  .default(100)
  .describe('USD of the target each route sells in its first leg, >= 0, default 100')
