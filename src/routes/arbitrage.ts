import { z } from 'zod'
import { address, atomicAmount, queryNumber, slippageBpsQuery } from './fields.js'
import { defineRoute, notImplemented } from './route.js'

export const arbitrageTarget = z
  .enum(['USDC', 'ETH', 'WETH', 'xETH', 'xBTC', 'xADA', 'xXRP'])
  .default('xBTC')
  .describe('Asset the routes end in: USDC, ETH, WETH, xETH, xBTC, xADA or xXRP; default xBTC')

export const budget = queryNumber(0).default(100).describe('USD to deploy per route, >= 0, default 100')
const arbitrageRouteSchema = z.object({
  rank: z.number().int(),
  path: z.array(z.string()).describe('Venues and tokens, in order'),
  fromToken: address,
  toToken: address,
  amountIn: atomicAmount,
  expectedOut: atomicAmount,
  minOut: atomicAmount,
  minOutUsd: z.number().describe('Worst-case min-out valued at an independent reference price'),
  gasUsd: z.number(),
  feesUsd: z.number(),
  netUsd: z.number().describe('Net dollars captured after gas and protocol fees'),
  swap: z
    .object({
      fromToken: address,
      toToken: address,
      fromAmount: atomicAmount,
      taker: address,
      slippageBps: z.number(),
    })
    .describe('Body for POST /v1/tx/swap'),
})

export const arbitrageOutput = z.object({
  target: z.string(),
  budgetUsd: z.number(),
  routes: z.array(arbitrageRouteSchema),
})

/** Values the examples below share, so the published examples tell one consistent story (Base mainnet). */
const EXAMPLE_WALLET = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const CBBTC = '0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf'

const ARBITRAGE_EXAMPLE = {
  target: 'xBTC',
  budgetUsd: 100,
  routes: [
    {
      rank: 1,
      path: ['USDC', 'Uniswap V3 0.05%', 'WETH', 'Aerodrome', 'cbBTC'],
      fromToken: USDC,
      toToken: CBBTC,
      amountIn: '100000000',
      expectedOut: '105410',
      minOut: '104882',
      minOutUsd: 99.64,
      gasUsd: 0.012,
      feesUsd: 0.09,
      netUsd: 0.13,
      swap: {
        fromToken: USDC,
        toToken: CBBTC,
        fromAmount: '100000000',
        taker: EXAMPLE_WALLET,
        slippageBps: 50,
      },
    },
  ],
} satisfies z.input<typeof arbitrageOutput>

export const arbitrageRoute = defineRoute({
  id: 'getArbitrage',
  method: 'GET',
  path: '/v1/arbitrage',
  priceUsd: 0.01,
  tier: 'alpha',
  summary: 'Ranked arbitrage routes, executable through POST /v1/tx/swap',
  description:
    'Routes into `target` ranked by net dollars captured after gas and protocol fees, with the worst-case min-out valued against an independent reference price. Each route carries the body for POST /v1/tx/swap.',
  input: {
    query: z.object({
      target: arbitrageTarget,
      budget,
      taker: address,
      slippageBps: slippageBpsQuery(10_000),
    }),
  },
  output: arbitrageOutput,
  example: {
    query: { target: 'xBTC', budget: '100', taker: EXAMPLE_WALLET, slippageBps: '50' },
    output: ARBITRAGE_EXAMPLE,
  },
  handler: notImplemented('alpha analytics'),
})
