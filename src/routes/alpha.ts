import { z } from 'zod'
import {
  address,
  atomicAmount,
  granularity,
  marketId,
  queryInt,
  queryNumber,
  slippageBpsQuery,
  symbol,
  symbolList,
  unixSeconds,
} from './fields.js'
import { idea } from './ideaSchema.js'
import { defineRoute, notImplemented } from './route.js'

/** Section B: alpha reads. Indicative output, not advice. */
const ANALYTICS = 'alpha analytics'

/** Targets the arbitrage scanner routes into. */
export const arbitrageTarget = z
  .enum(['USDC', 'ETH', 'WETH', 'xETH', 'xBTC', 'xADA', 'xXRP'])
  .default('xBTC')
  .describe('Asset the routes end in: USDC, ETH, WETH, xETH, xBTC, xADA or xXRP; default xBTC')

const budget = queryNumber(0).default(100).describe('USD to deploy per route, >= 0, default 100')
const ideasLimit = queryInt(1, 12).default(6).describe('Number of ideas, 1..12, default 6')
const worthwhileness = z.enum(['strict', 'loose']).default('strict')

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

const arbitrageOutput = z.object({
  target: z.string(),
  budgetUsd: z.number(),
  routes: z.array(arbitrageRouteSchema),
})

const frame = z.object({
  buyPct: z.number(),
  sellPct: z.number(),
  dominance: z.enum(['buy', 'sell', 'even']),
})

const summaryOutput = z.object({
  bestLong: idea.nullable(),
  bestShort: idea.nullable(),
  topByCategory: z.record(z.string(), idea),
  breadth: z.object({ long: z.number().int(), short: z.number().int(), neutral: z.number().int() }),
})

export const taRoute = defineRoute({
  id: 'getTa',
  method: 'GET',
  path: '/v1/ta/{sym}',
  priceUsd: 0.005,
  tier: 'alpha',
  summary: 'Single-symbol chart read (experimental)',
  description:
    'Trend and markers for `sym` at timeframe `gran` (60|300|900|3600|86400 seconds or 1m|5m|15m|1H|1D, default 900). Experimental, with no established edge.',
  input: { params: z.object({ sym: symbol }), query: z.object({ gran: granularity }) },
  output: z.object({
    symbol,
    granularitySec: z.number().int(),
    trend: z.enum(['up', 'down', 'flat']),
    support: z.number().nullable(),
    resistance: z.number().nullable(),
    markers: z.array(z.object({ t: unixSeconds, kind: z.string(), price: z.number() })),
    experimental: z.literal(true),
  }),
  handler: notImplemented(ANALYTICS),
})

export const compareRoute = defineRoute({
  id: 'getIdeasCompare',
  method: 'GET',
  path: '/v1/ideas/compare',
  priceUsd: 0.005,
  tier: 'alpha',
  summary: 'Relative-strength pair read of two symbols',
  description: 'Relative strength of `a` against `b`, plus each leg’s own edge and the suggested pair trade.',
  input: { query: z.object({ a: symbol, b: symbol }) },
  output: z.object({
    a: idea,
    b: idea,
    ratio: z.number(),
    relativeStrength: z.number().describe('Return of a minus return of b over the window, percent'),
    zScore: z.number(),
    suggestion: z.object({ long: symbol, short: symbol }).nullable(),
  }),
  handler: notImplemented(ANALYTICS),
})

export const ideasRoute = defineRoute({
  id: 'getIdeas',
  method: 'GET',
  path: '/v1/ideas',
  priceUsd: 0.01,
  tier: 'alpha',
  summary: 'Ranked leverage ideas',
  description:
    'Ranked by edge times leveraged profit per unit time over about a year of daily candles. `symbols` (at most 20; default: the top listed majors), `limit` 1..12 (default 6), `worthwhileness` strict (one idea per direction per category) or loose (a fuller field). Reference price $0.01; the spec also lists strict at $0.008.',
  input: {
    query: z.object({ symbols: symbolList(20).optional(), limit: ideasLimit, worthwhileness }),
  },
  output: z.object({ worthwhileness, ideas: z.array(idea) }),
  handler: notImplemented(ANALYTICS),
})

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
  handler: notImplemented(ANALYTICS),
})

export const taScanRoute = defineRoute({
  id: 'getTaScan',
  method: 'GET',
  path: '/v1/ta/scan',
  priceUsd: 0.01,
  tier: 'alpha',
  summary: 'Buy/sell dominance across 1m, 5m and 15m (experimental)',
  description: 'For up to 8 symbols, buy versus sell dominance on the 1m, 5m and 15m frames. Experimental.',
  input: { query: z.object({ symbols: symbolList(8) }) },
  output: z.object({
    scans: z.array(z.object({ symbol, frames: z.object({ '1m': frame, '5m': frame, '15m': frame }) })),
  }),
  handler: notImplemented(ANALYTICS),
})

export const loanAnalysisRoute = defineRoute({
  id: 'getLoanAnalysis',
  method: 'GET',
  path: '/v1/loan/analysis/{address}',
  priceUsd: 0.01,
  tier: 'alpha',
  summary: 'Borrow-position risk analysis',
  description:
    'For each borrow position of `address`: health factor, liquidation price and distance, and whether it is solvent or liquidatable (health factor at or below 1; liquidation is permissionless with no grace period).',
  input: { params: z.object({ address }) },
  output: z.object({
    address,
    positions: z.array(
      z.object({
        protocol: z.string(),
        marketId,
        healthFactor: z.number().nullable(),
        liquidationPrice: z.number().nullable(),
        liquidationDistancePct: z.number().nullable(),
        status: z.enum(['solvent', 'liquidatable']),
        advice: z.string(),
      }),
    ),
  }),
  handler: notImplemented(ANALYTICS),
})

export const ideasSummaryRoute = defineRoute({
  id: 'getIdeasSummary',
  method: 'GET',
  path: '/v1/ideas/summary',
  priceUsd: 0.01,
  tier: 'alpha',
  summary: 'Market-wide aggregate of ideas',
  description: 'Best long, best short, top idea per category and breadth counts.',
  input: {},
  output: summaryOutput,
  handler: notImplemented(ANALYTICS),
})

export const alphaRoute = defineRoute({
  id: 'getAlpha',
  method: 'GET',
  path: '/v1/alpha',
  priceUsd: 0.01,
  tier: 'alpha',
  summary: 'One-call bundle: arbitrage, ideas, signals and summary',
  description:
    'Arbitrage (skipped when `taker` is omitted), ideas (symbols up to 20), signals (the first 10 symbols) and the summary in one call. Reference price $0.01; the machine-readable description lists $0.02.',
  input: {
    query: z.object({
      target: arbitrageTarget,
      budget,
      taker: address.optional(),
      symbols: symbolList(20).optional(),
      limit: ideasLimit,
      slippageBps: slippageBpsQuery(10_000),
    }),
  },
  output: z.object({
    arbitrage: arbitrageOutput.nullable(),
    ideas: z.array(idea),
    signals: z.array(
      z.object({ symbol, bias: z.enum(['long', 'short', 'neutral']), conviction: z.number() }),
    ),
    summary: summaryOutput,
  }),
  handler: notImplemented(ANALYTICS),
})

export const alphaRoutes = [
  taScanRoute,
  taRoute,
  compareRoute,
  ideasRoute,
  arbitrageRoute,
  loanAnalysisRoute,
  ideasSummaryRoute,
  alphaRoute,
]
