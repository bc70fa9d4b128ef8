/**
 * GET /v1/arbitrage's query fields and output schema, also part of GET /v1/alpha.
 */
import { z } from 'zod'
import { address, atomicAmount } from '../../chain/fields.js'
import { queryNumber } from './fields.js'

export const arbitrageTarget = z
  .enum(['USDC', 'ETH', 'WETH', 'xETH', 'xBTC', 'xADA', 'xXRP'])
  .default('xBTC')
  .describe('Asset the routes start and end in: USDC, ETH, WETH, xETH, xBTC, xADA or xXRP; default xBTC')

export const budget = queryNumber(0)
  .default(100)
  .describe('USD of the target each route sells in its first leg, >= 0, default 100')

export const usd = z.number()

export const legSchema = z.object({
  venue: z.string().describe('`Uniswap_V3 <fee>%`, `Aerodrome_V2`, or `0x:<sources>`'),
  fromToken: address,
  toToken: address,
  amountIn: atomicAmount,
  expectedOut: atomicAmount,
  minOut: atomicAmount.describe('The leg reverts below it; the next leg sells exactly this'),
  swap: z
    .object({
      fromToken: address,
      toToken: address,
      fromAmount: atomicAmount,
      taker: address,
      slippageBps: z.number().int(),
    })
    .describe('The exact body for POST /v1/tx/swap'),
})

export const arbitrageRouteSchema = z.object({
  rank: z.number().int().describe('1 = highest netUsd'),
  path: z.array(z.string()).describe('Tokens and venues alternating, first and last the target'),
  amountIn: atomicAmount.describe('Target sold by the first leg'),
  expectedOut: atomicAmount.describe('Target the final leg is expected to return'),
  minOut: atomicAmount.describe('Target the final leg returns at worst'),
  minOutUsd: usd.describe('minOut at the reference price (worst case: leftovers may be 0)'),
  leftoverUsd: usd.describe('Intermediate tokens filled above each leg’s minOut, kept by the taker'),
  gasUnits: atomicAmount.describe('Gas units counted for all legs (an upper bound)'),
  gasUsd: usd,
  feesUsd: usd.describe('Pool and aggregator fees, already inside the quoted outputs'),
  netUsd: usd.describe('expectedOut + leftovers − amountIn − gas, in USD'),
  legs: z.array(legSchema),
})

export const arbitrageOutput = z.object({
  target: z.string(),
  token: address.nullable().describe('The target’s token (native ETH: the 0xEeee… sentinel); null: none'),
  referencePriceUsd: usd.nullable(),
  referenceSource: z.string().nullable().describe('`coinbase:<product>` (exchange spot) or `par`'),
  budgetUsd: usd,
  blockNumber: z.string().nullable().describe('Block whose base fee priced the gas'),
  baseFeeWei: z.string().nullable(),
  referencePrices: z
    .array(z.object({ symbol: z.string(), priceUsd: usd.nullable(), source: z.string().nullable() }))
    .describe('Every reference price used: the target, the intermediates, ETH-USD for gas'),
  routes: z.array(arbitrageRouteSchema),
  reason: z.string().nullable().describe('Why routes is empty; null when it is not'),
  disclaimer: z.string(),
})
