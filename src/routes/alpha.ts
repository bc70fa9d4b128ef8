import { getAddress } from 'viem'
import { z } from 'zod'
import { getAlpha } from '../market/getAlpha.js'
import { getChartRead } from '../market/getChartRead.js'
import { getIdeas } from '../market/getIdeas.js'
import { getIdeasCompare } from '../market/getIdeasCompare.js'
import { getIdeasSummary } from '../market/getIdeasSummary.js'
import { getLoanAnalysis } from '../market/getLoanAnalysis.js'
import { getTaScan } from '../market/getTaScan.js'
import { arbitrageOutput, arbitrageRoute, arbitrageTarget, budget } from './arbitrage.js'
import {
  address,
  atomicAmount,
  granularity,
  marketId,
  queryInt,
  slippageBpsQuery,
  sourceStatus,
  symbol,
  symbolList,
  unixSeconds,
  wallet,
} from './fields.js'
import {
  assetRead,
  IDEA_RULES,
  IDEAS_DISCLAIMER_TEXT,
  idea,
  ideaBasis,
  ideaRanking,
  ideasSkipped,
} from './ideaSchema.js'
import { defineRoute } from './route.js'
import { LOAN_ANALYSIS_EXAMPLE } from './walletExamples.js'

/** Section B: alpha reads. Indicative output, not advice. */

/** Targets the arbitrage scanner routes into. */
const ideasLimit = queryInt(1, 12).default(6).describe('Number of ideas, 1..12, default 6')
const worthwhileness = z.enum(['strict', 'loose']).default('strict')

const frame = z
  .object({
    buyPct: z.number().describe('Buy share of the frame’s weight, 0..100'),
    sellPct: z.number().describe('Sell share, 100 − buyPct'),
    dominance: z.enum(['buy', 'sell', 'even']).describe('buy at buyPct ≥ 55, sell at ≤ 45, else even'),
    basis: z
      .enum(['volume', 'count'])
      .describe('volume-weighted, or each bar weighs 1 where the source has no volume'),
    bars: z.number().int().describe('Bars read, at most 60'),
    lastBarTime: unixSeconds.describe('Start of the last bar read'),
  })
  .nullable()
  .describe('null with fewer than 10 bars in the frame (insufficient history)')

const summaryOutput = z.object({
  basis: ideaBasis,
  bestLong: idea.nullable(),
  bestShort: idea.nullable(),
  topByCategory: z.record(z.string(), idea),
  breadth: z.object({ long: z.number().int(), short: z.number().int(), neutral: z.number().int() }),
  universe: z.array(symbol).describe('The markets read'),
  skipped: ideasSkipped,
  disclaimer: IDEAS_DISCLAIMER_TEXT,
})

/** Ranked-list ideas: target, liquidation and edge are filled by single-asset reads only. */
const ETH_LONG = {
  symbol: 'ETH',
  pairIndex: 1,
  category: 'crypto',
  direction: 'long',
  entry: 3012.7,
  stop: 2921.3,
  target: null,
  liquidation: null,
  edge: null,
  leverage: 9,
  maxLeverage: 250,
  conviction: 0.31,
  open: { pairIndex: 1, long: true, leverage: 9, markPrice: 3012.7, tradeType: 0, tp: 3195.5, sl: 2921.3 },
} satisfies z.input<typeof idea>

const BTC_SHORT = {
  symbol: 'BTC',
  pairIndex: 0,
  category: 'crypto',
  direction: 'short',
  entry: 95120,
  stop: 97400,
  target: null,
  liquidation: null,
  edge: null,
  leverage: 8,
  maxLeverage: 250,
  conviction: 0.22,
  open: { pairIndex: 0, long: false, leverage: 8, markPrice: 95120, tradeType: 0, tp: 90500, sl: 97400 },
} satisfies z.input<typeof idea>

/** The examples' shared tail: SOL read neutral, nothing else skipped. */
const SOL_NEUTRAL_TAIL = {
  skipped: {
    neutral: [{ symbol: 'SOL', reason: 'no_trend' as const }],
    insufficientHistory: [],
    unknown: [],
    unavailable: [],
  },
  disclaimer: 'Indicative, not advice',
}

const SUMMARY_EXAMPLE = {
  basis: '1d-1y',
  bestLong: ETH_LONG,
  bestShort: BTC_SHORT,
  topByCategory: { crypto: ETH_LONG },
  breadth: { long: 1, short: 1, neutral: 1 },
  universe: ['BTC', 'ETH', 'SOL'],
  ...SOL_NEUTRAL_TAIL,
} satisfies z.input<typeof summaryOutput>

const markerKind = z.enum([
  'golden-cross',
  'death-cross',
  'macd-cross-up',
  'macd-cross-down',
  'bullish-divergence',
  'bearish-divergence',
  'breakout',
  'breakdown',
  'higher-high',
  'higher-low',
  'lower-high',
  'lower-low',
])

const TA_DISCLAIMER_TEXT = z.string().describe('Indicative, not advice; experimental, no established edge')
const INSUFFICIENT = 'null with insufficient_history (fewer than 50 bars: no made-up value)'

const taOutput = z.object({
  symbol,
  source: z.string().describe('Candle source: exchange product (BTC-USD) or oracle symbol (FX.EUR/USD)'),
  granularitySec: z.number().int(),
  status: z
    .enum(['ok', 'insufficient_history'])
    .describe('insufficient_history when the source has fewer than 50 whole bars in the window'),
  needed: z.number().int().nullable().describe('Bars the read needs (50); null when ok'),
  got: z.number().int().nullable().describe('Bars the source had; null when ok'),
  trend: z
    .enum(['up', 'down', 'flat'])
    .nullable()
    .describe(
      `(SMA20 now − SMA20 5 bars ago) / σ20: up above +0.25, down below −0.25, else flat; ${INSUFFICIENT}`,
    ),
  momentum: z
    .object({
      rsi: z.number().describe('Wilder RSI(14) on the last bar, 0..100, 4 decimals'),
      macdHistogram: z.number().describe('MACD(12/26/9) line minus signal on the last bar, price units'),
      state: z.enum(['rising', 'falling', 'neutral']),
    })
    .nullable()
    .describe(
      `rising: histogram > 0 and RSI > 50; falling: histogram < 0 and RSI < 50; else neutral; ${INSUFFICIENT}`,
    ),
  support: z
    .number()
    .nullable()
    .describe(`Highest confirmed swing-low close below the last close; null when none or ${INSUFFICIENT}`),
  resistance: z
    .number()
    .nullable()
    .describe(`Lowest confirmed swing-high close above the last close; null when none or ${INSUFFICIENT}`),
  markers: z
    .array(
      z.object({ t: unixSeconds, kind: markerKind, price: z.number().describe('Close of the bar at t') }),
    )
    .nullable()
    .describe(`The latest 20 chart events, oldest first; ${INSUFFICIENT}`),
  gaps: z
    .number()
    .int()
    .nullable()
    .describe(`Consecutive bars more than 1.5 bars apart (never filled); ${INSUFFICIENT}`),
  barsUsed: z.number().int().describe('Whole bars read (at most 300)'),
  lastBarTime: unixSeconds.describe(
    'Start of the last bar used (the window ends at the start of the current bar)',
  ),
  experimental: z.literal(true),
  disclaimer: TA_DISCLAIMER_TEXT,
})

export const taRoute = defineRoute({
  id: 'getTa',
  method: 'GET',
  path: '/v1/ta/{sym}',
  priceUsd: 0.005,
  tier: 'alpha',
  summary: 'Single-symbol chart read (experimental)',
  description:
    'Chart read of `sym` at timeframe `gran` (60|300|900|3600|86400 seconds or 1m|5m|15m|1H|1D, default 900). Experimental, with no established edge: indicative, not advice. ' +
    'Bars: the last 300 whole bars (the window ends at the start of the current bar), from the exchange product SYM-USD when listed (one call), else from the oracle history (Pyth Benchmarks, no volume) of the symbol’s USD feed at the same timeframe; bars are taken as they come, a time step above 1.5 bars counts in `gaps` and nothing is filled in. An unknown `sym` is a 404 `unknown_instrument` naming `sym`, not charged; a bad `gran` a 400 naming `gran`; a known symbol with no bar at all a 502, not charged. ' +
    'Warm-up: with fewer than 50 bars (the slow SMA) the answer is 200 with status `insufficient_history`, `needed` 50, `got` the bars, and every indicator field null. ' +
    'Indicators over closes: SMA(p) = mean of the last p closes; EMA seeded with its first input, k = 2/(p+1). `trend`: slope = (SMA20 now − SMA20 five bars ago) / σ20 (population σ of the last 20 closes; 0 when σ20 = 0): up above +0.25, down below −0.25, else flat. `momentum.rsi`: Wilder RSI(14) seeded with the mean gain and loss of the first 14 changes (100 when the average loss is 0, 50 when nothing moved); `momentum.macdHistogram`: MACD(12/26/9) line minus signal, the signal starting at close 26; `momentum.state` rising when histogram > 0 and RSI > 50, falling when histogram < 0 and RSI < 50, else neutral. ' +
    'Swings: zigzag turns of closes by at least 3 × the mean absolute close-to-close change of the window, confirmed at the first bar that far back from the extreme. `support`: the highest swing-low close below the last close; `resistance`: the lowest swing-high close above it (null when none). ' +
    'Markers (price = the close of the bar at t): golden-cross / death-cross when the sign of SMA20 − SMA50 turns; macd-cross-up / -down when the histogram’s sign turns; higher-high / lower-high / higher-low / lower-low against the previous swing of its kind; bearish-divergence (a higher swing high with a lower RSI) and bullish-divergence (a lower swing low with a higher RSI); breakout / breakdown at the first close beyond a swing level after its confirmation (each level used once). Sorted by t, the latest 20.',
  input: { params: z.object({ sym: symbol }), query: z.object({ gran: granularity }) },
  output: taOutput,
  example: {
    params: { sym: 'BTC' },
    query: { gran: '1H' },
    // Devnet output of GET /v1/ta/BTC?gran=1H; markers cut to the last 3 of 20 to keep the challenge small.
    output: {
      symbol: 'BTC',
      source: 'BTC-USD',
      granularitySec: 3600,
      status: 'ok',
      needed: null,
      got: null,
      trend: 'up',
      momentum: { rsi: 62.2332, macdHistogram: 464.2534763, state: 'rising' },
      support: 97123.14,
      resistance: 99616.18,
      markers: [
        { t: 1795428000, kind: 'higher-high', price: 99616.18 },
        { t: 1795428000, kind: 'breakout', price: 99616.18 },
        { t: 1795435200, kind: 'higher-low', price: 97123.14 },
      ],
      gaps: 0,
      barsUsed: 300,
      lastBarTime: 1795449600,
      experimental: true,
      disclaimer: 'Indicative, not advice; experimental, no established edge',
    },
  },
  handler: async ({ params, query }, ctx) =>
    getChartRead(ctx.deps.market, params.sym, query.gran, ctx.deps.clock()),
})

export const compareRoute = defineRoute({
  id: 'getIdeasCompare',
  method: 'GET',
  path: '/v1/ideas/compare',
  priceUsd: 0.005,
  tier: 'alpha',
  summary: 'Relative-strength pair read of two symbols',
  description:
    'Relative strength of `a` against `b` over the basis bars both legs have (joined on bar time: a bar missing from either leg is dropped from both), plus each leg’s own read in the single-asset form. ' +
    'Over the n common bars, x = ln(close a ÷ close b): `ratio` = last a ÷ last b; `relativeStrength` = a’s return minus b’s over the window, percent; the ratio’s trend: slope = the least-squares slope of x against the bar number, `ratioSlopePctPerBar` = (e^slope − 1) × 100, `ratioTrend` up / down when |slope| × (n − 1) ≥ σx, else flat; `zScore` = (last x − mean x) ÷ σx (population σ; null for a flat ratio); `correlation` = Pearson of the legs’ log returns (null when a leg is flat); `suggestion` (mean reversion) long b / short a at z ≥ 2, long a / short b at z ≤ −2, else null. Fewer than 20 common bars: status insufficient_history with `needed` and the pair figures null. ' +
    'Each leg: ' +
    IDEA_RULES +
    ' a = b is 400 naming `b`; a ticker without a listed pair is 404 `unknown_instrument` naming `a` or `b`; not charged.',
  input: { query: z.object({ a: symbol, b: symbol, basis: ideaBasis }) },
  output: z.object({
    a: assetRead,
    b: assetRead,
    basis: ideaBasis,
    status: z.enum(['ok', 'insufficient_history']),
    bars: z.number().int().describe('Common bars compared'),
    needed: z.number().int().nullable().describe('insufficient_history: the 20 common bars needed'),
    from: unixSeconds.nullable(),
    to: unixSeconds.nullable(),
    ratio: z.number().nullable(),
    relativeStrength: z
      .number()
      .nullable()
      .describe('Return of a minus return of b over the window, percent'),
    ratioSlopePctPerBar: z
      .number()
      .nullable()
      .describe('Least-squares slope of ln(a ÷ b) per bar, as percent per bar'),
    ratioTrend: z
      .enum(['up', 'down', 'flat'])
      .nullable()
      .describe('up / down when the fitted move over the window is at least one σ of ln(a ÷ b)'),
    zScore: z.number().nullable(),
    correlation: z.number().nullable(),
    suggestion: z.object({ long: symbol, short: symbol }).nullable(),
    disclaimer: IDEAS_DISCLAIMER_TEXT,
  }),
  example: {
    query: { a: 'ETH', b: 'BTC' },
    output: {
      a: {
        symbol: 'ETH',
        status: 'ok',
        reason: null,
        needed: null,
        got: null,
        idea: { ...ETH_LONG, target: 3195.5, liquidation: 2741.6, edge: 0.012 },
      },
      b: { symbol: 'BTC', status: 'neutral', reason: 'no_trend', needed: null, got: null, idea: null },
      basis: '1d-1y',
      status: 'ok',
      bars: 365,
      needed: null,
      from: 1763856000,
      to: 1795305600,
      ratio: 0.03167,
      relativeStrength: 4.2,
      ratioSlopePctPerBar: 0.011,
      ratioTrend: 'up',
      zScore: 2.1,
      correlation: 0.81,
      suggestion: { long: 'BTC', short: 'ETH' },
      disclaimer: 'Indicative, not advice',
    },
  },
  handler: async ({ query }, ctx) => getIdeasCompare(ctx.deps.market, query, ctx.deps.clock()),
})

export const ideasRoute = defineRoute({
  id: 'getIdeas',
  method: 'GET',
  path: '/v1/ideas',
  priceUsd: 0.01,
  tier: 'alpha',
  summary: 'Ranked leverage ideas',
  description:
    'Ranked leverage ideas over `symbols` (at most 20; default the 20 listed majors: BTC, ETH, SOL, XRP, BNB, DOGE, ADA, LINK, AVAX, LTC, EUR, GBP, AUD, XAU, XAG, WTI, SPY, QQQ, NVDA, TSLA), one read per market, all read concurrently. ' +
    IDEA_RULES +
    ' Listing (`worthwhileness`): strict (default) keeps ideas with edge ≥ 0.008 and at most one per direction per category (the first in ranking order); loose keeps every idea with edge > 0. (The spec writes strict = 0.008 and loose = 0.01: 0.008 is strict’s threshold; 0.01 is this endpoint’s price, since a higher threshold could not give loose its fuller field.) ' +
    'Ranking (`ranking`): edge-rate (default) = edge × leverage ÷ holding time (16 bars, the random-walk time to a target 4 ATR away; the same for every idea of one basis, so the order is that of edge × leverage), ties by the conviction order; conviction = conviction, then edge, then symbol, then pairIndex. Then the first `limit` (1..12, default 6). ' +
    'Ideas come in the list form (target, liquidation and edge null: GET /v1/ideas/asset/{sym} adds them; `open.tp` is the target). Tickers without a listed pair are in `skipped.unknown`; all unknown is 400 `unknown_symbol` naming `symbols`, and no price or bar for any is 502; neither is charged. Reference price $0.01; the spec also lists strict at $0.008.',
  input: {
    query: z.object({
      symbols: symbolList(20).optional(),
      limit: ideasLimit,
      worthwhileness,
      basis: ideaBasis,
      ranking: ideaRanking,
    }),
  },
  output: z.object({
    worthwhileness,
    basis: ideaBasis,
    ranking: ideaRanking,
    ideas: z.array(idea),
    skipped: ideasSkipped,
    disclaimer: IDEAS_DISCLAIMER_TEXT,
  }),
  example: {
    query: { symbols: 'BTC,ETH,SOL', limit: '2', worthwhileness: 'strict' },
    output: {
      worthwhileness: 'strict',
      basis: '1d-1y',
      ranking: 'edge-rate',
      ideas: [ETH_LONG, BTC_SHORT],
      ...SOL_NEUTRAL_TAIL,
    },
  },
  handler: async ({ query }, ctx) => getIdeas(ctx.deps.market, query, ctx.deps.clock()),
})

export const taScanRoute = defineRoute({
  id: 'getTaScan',
  method: 'GET',
  path: '/v1/ta/scan',
  priceUsd: 0.01,
  tier: 'alpha',
  summary: 'Buy/sell dominance across 1m, 5m and 15m (experimental)',
  description:
    'For up to 8 symbols, buy versus sell dominance on the 1m, 5m and 15m frames and one lean across them. Experimental, with no established edge: indicative, not advice. ' +
    'Bars: per symbol and frame, the last 60 whole bars (the window ends at the start of the current bar), all read concurrently from the exchange product SYM-USD when listed, else the oracle history (Pyth Benchmarks, no volume) of the symbol’s USD feed. ' +
    'Dominance per frame: a bar is up when close > open, down when close < open, a doji counts half each. Each bar weighs its volume when any bar of the frame has volume above 0 (`basis: volume`), else 1 (`basis: count`, the oracle). buyPct = 100 × weight of up bars (+ half the dojis) ÷ total weight; sellPct = 100 − buyPct (both to 4 decimals). dominance: buy when buyPct ≥ 55, sell when ≤ 45, else even. ' +
    'A frame with fewer than 10 bars is null (not a made-up share) and the symbol’s status is insufficient_history. `lean`: the plain mean of the frames’ buyPct (each frame weighs the same: the frames cover the same trades), read with the same 55/45 thresholds; over the frames that have a read, null when none has. ' +
    'Tickers without a USD product or feed are listed in `unknown` and the rest answered; when all are unknown, 400 `unknown_symbol` (field `symbols`), not charged; when no known symbol has a bar at all, 502, not charged.',
  input: { query: z.object({ symbols: symbolList(8) }) },
  output: z.object({
    scans: z.array(
      z.object({
        symbol,
        source: z
          .string()
          .describe('Candle source: exchange product (BTC-USD) or oracle symbol (FX.EUR/USD)'),
        status: z
          .enum(['ok', 'insufficient_history'])
          .describe('insufficient_history when any frame is null'),
        frames: z.object({ '1m': frame, '5m': frame, '15m': frame }),
        lean: z
          .enum(['buy', 'sell', 'even'])
          .nullable()
          .describe(
            'Mean buyPct of the frames with a read: buy ≥ 55, sell ≤ 45, else even; null when no frame has one',
          ),
      }),
    ),
    unknown: z.array(z.string()).describe('Requested tickers with no USD product or feed'),
    disclaimer: TA_DISCLAIMER_TEXT,
  }),
  example: {
    query: { symbols: 'BTC,ETH,NOPE' },
    // Devnet output of GET /v1/ta/scan?symbols=BTC,ETH,NOPE.
    output: {
      scans: [
        {
          symbol: 'BTC',
          source: 'BTC-USD',
          status: 'ok',
          frames: {
            '1m': {
              buyPct: 28.9792,
              sellPct: 71.0208,
              dominance: 'sell',
              basis: 'volume',
              bars: 60,
              lastBarTime: 1795454880,
            },
            '5m': {
              buyPct: 51.125,
              sellPct: 48.875,
              dominance: 'even',
              basis: 'volume',
              bars: 60,
              lastBarTime: 1795454400,
            },
            '15m': {
              buyPct: 54.0666,
              sellPct: 45.9334,
              dominance: 'even',
              basis: 'volume',
              bars: 60,
              lastBarTime: 1795453200,
            },
          },
          lean: 'sell',
        },
        {
          symbol: 'ETH',
          source: 'ETH-USD',
          status: 'ok',
          frames: {
            '1m': {
              buyPct: 61.4534,
              sellPct: 38.5466,
              dominance: 'buy',
              basis: 'volume',
              bars: 60,
              lastBarTime: 1795454880,
            },
            '5m': {
              buyPct: 62.496,
              sellPct: 37.504,
              dominance: 'buy',
              basis: 'volume',
              bars: 60,
              lastBarTime: 1795454400,
            },
            '15m': {
              buyPct: 53.7495,
              sellPct: 46.2505,
              dominance: 'even',
              basis: 'volume',
              bars: 60,
              lastBarTime: 1795453200,
            },
          },
          lean: 'buy',
        },
      ],
      unknown: ['NOPE'],
      disclaimer: 'Indicative, not advice; experimental, no established edge',
    },
  },
  handler: async ({ query }, ctx) => getTaScan(ctx.deps.market, query.symbols, ctx.deps.clock()),
})

const builderCall = z
  .object({ method: z.literal('POST'), path: z.string(), body: z.record(z.string(), z.string()) })
  .nullable()
  .describe(
    'The builder that performs this step and its exact body (amount covers one more hour of interest); null for Aave (no builder)',
  )
const restoreStep = z
  .object({
    assets: atomicAmount.describe(
      'The least amount (atomic; Aave: USD × 1e8) that restores the target at asOf',
    ),
    healthFactorAfter: z.number().nullable(),
    builder: builderCall,
  })
  .nullable()

export const loanAnalysisRoute = defineRoute({
  id: 'getLoanAnalysis',
  method: 'GET',
  path: '/v1/loan/analysis/{address}',
  priceUsd: 0.01,
  tier: 'alpha',
  summary: 'Borrow-position risk analysis',
  description:
    'For each borrow of `address` (Morpho Blue catalog markets, the Aave v3 account as one position, Morpho Midnight fixed-rate debts), read live as /v1/positions reads them (debt accrued to `asOf`): ' +
    'health factor = maxBorrow ÷ debt with maxBorrow = ⌊⌊collateral × oracle price ÷ 1e36⌋ × lltv ÷ 1e18⌋ (Aave: its own percentMul/wadDiv over getUserAccountData); status liquidatable when health ≤ 1 (liquidation is permissionless, no grace period); ' +
    'liquidation price (the oracle price at health 1; Aave: the collateral USD value at health 1, as `liquidationDistancePct`); ' +
    'time to liquidation from interest alone at today’s rate with the price held: ⌊ln(maxBorrow ÷ debt) ÷ r⌋ seconds (r = per-second rate; null for fixed-rate debt or a 0 rate; 0 when liquidatable); ' +
    'a stress table at the collateral price −10/−20/−30% (Aave: the collateral value); ' +
    'and the least repay or collateral that restores `targetHealth` (default 1.5), exact at asOf, each with the matching builder (/v1/tx/loan/repay and /v1/tx/loan/supply-collateral for Morpho Blue, /v1/tx/fixed/repay and /v1/tx/fixed/supply-collateral for Midnight) and a body whose amount is computed for the debt one hour later at today’s rate (plus 2 atomic units of Morpho share rounding on repay), so it still reaches the target when included within the hour. Aave amounts are in USD (× 1e8) with no builder. ' +
    'A Midnight debt with several collaterals has no single liquidation price and is listed in `skipped`. Indicative, not advice.',
  input: {
    params: z.object({ address }),
    query: z.object({
      targetHealth: z.coerce
        .number()
        .gt(1, 'targetHealth must be above 1')
        .max(100, 'targetHealth must be at most 100')
        .default(1.5)
        .describe('The health factor the restore amounts reach (above 1, at most 100; default 1.5)'),
    }),
  },
  output: z.object({
    address,
    block: z.object({ number: z.number().int().nonnegative(), timestamp: unixSeconds }).nullable(),
    asOf: unixSeconds
      .nullable()
      .describe('The time debts are accrued to: the later of the block time and now'),
    targetHealth: z.number(),
    positions: z.array(
      z.object({
        protocol: z.enum(['morpho-blue', 'aave-v3', 'morpho-midnight']),
        marketId: marketId.nullable(),
        collateralToken: address.nullable(),
        collateralSymbol: z.string().nullable(),
        collateral: atomicAmount.nullable(),
        loanToken: address.nullable(),
        loanSymbol: z.string().nullable(),
        debt: atomicAmount.nullable(),
        collateralUsd: z.number().nullable(),
        debtUsd: z.number().nullable(),
        healthFactor: z.number().nullable(),
        status: z.enum(['solvent', 'liquidatable']),
        price: z.number().nullable().describe('Oracle price, loan tokens per whole collateral token'),
        liquidationPrice: z.number().nullable(),
        liquidationDistancePct: z
          .number()
          .nullable()
          .describe('How far the collateral must fall, %; ≤ 0 when liquidatable'),
        timeToLiquidationSec: z.number().nullable(),
        borrowApy: z.number().nullable(),
        stress: z.array(
          z.object({
            priceChangePct: z.number(),
            price: z.number().nullable(),
            collateralUsd: z.number().nullable(),
            healthFactor: z.number().nullable(),
            liquidatable: z.boolean(),
          }),
        ),
        restore: z.object({ targetHealth: z.number(), repay: restoreStep, supplyCollateral: restoreStep }),
        advice: z.string(),
      }),
    ),
    skipped: z.array(z.object({ protocol: z.string(), marketId, reason: z.string() })),
    sources: z.object({ lending: sourceStatus, midnight: sourceStatus }),
  }),
  example: LOAN_ANALYSIS_EXAMPLE,
  handler: (input, ctx) =>
    getLoanAnalysis(
      { chain: ctx.deps.chain, lending: ctx.deps.lending, market: ctx.deps.market },
      getAddress(input.params.address),
      ctx.deps.clock(),
      input.query.targetHealth,
    ),
})

export const ideasSummaryRoute = defineRoute({
  id: 'getIdeasSummary',
  method: 'GET',
  path: '/v1/ideas/summary',
  priceUsd: 0.01,
  tier: 'alpha',
  summary: 'Market-wide aggregate of ideas',
  description:
    'One read per market of the default universe (the 20 listed majors of GET /v1/ideas, all five categories), aggregated: `bestLong` / `bestShort` = the best long / short idea in the conviction order (conviction, then edge, symbol, pairIndex), with no worthwhileness filter; `topByCategory` = the best idea of each category that has one; `breadth` = how many markets read long, short or neutral (markets short of history count in none; see `skipped`). Ideas in the list form. ' +
    IDEA_RULES,
  input: { query: z.object({ basis: ideaBasis }) },
  output: summaryOutput,
  example: { output: SUMMARY_EXAMPLE },
  handler: async ({ query }, ctx) => getIdeasSummary(ctx.deps.market, query.basis, ctx.deps.clock()),
})

export const alphaRoute = defineRoute({
  id: 'getAlpha',
  method: 'GET',
  path: '/v1/alpha',
  priceUsd: 0.01,
  tier: 'alpha',
  summary: 'One-call bundle: arbitrage, ideas, signals and summary',
  description:
    'One call, read concurrently: `ideas` = GET /v1/ideas over `symbols` (at most 20; default the 20 listed majors) with worthwhileness strict, ranking edge-rate, basis 1d-1y and `limit` (1..12, default 6); `summary` = GET /v1/ideas/summary over the same reads (so over `symbols`, not only the default universe); `signals` = GET /v1/signals (USD) for the first 10 of `symbols`, each with its bias and conviction; `arbitrage` = GET /v1/arbitrage for `target`, `budget`, `taker` and `slippageBps`, skipped (null, with `arbitrageSkipped` saying why) when `taker` is omitted. ' +
    'All symbols unknown to the perp venue is 400 `unknown_symbol` naming `symbols`; any section’s upstream failing is 502 (the bundle is all or nothing); neither is charged. Reference price $0.01; the machine-readable description of the spec lists $0.02. Indicative, not advice.',
  input: {
    query: z.object({
      target: arbitrageTarget,
      budget,
      taker: wallet.optional(),
      symbols: symbolList(20).optional(),
      limit: ideasLimit,
      slippageBps: slippageBpsQuery(10_000),
    }),
  },
  output: z.object({
    arbitrage: arbitrageOutput.nullable(),
    arbitrageSkipped: z.string().nullable().describe('Why arbitrage is null (no taker); null when read'),
    ideas: z.array(idea),
    signals: z.array(
      z.object({
        symbol,
        bias: z.enum(['long', 'short', 'neutral']).nullable(),
        conviction: z.number().nullable(),
      }),
    ),
    summary: summaryOutput,
    disclaimer: IDEAS_DISCLAIMER_TEXT,
  }),
  // Without `taker` the arbitrage section is skipped: that keeps this example (it travels in the 402 header) small.
  example: {
    query: { symbols: 'BTC,ETH,SOL', limit: '1' },
    output: {
      arbitrage: null,
      arbitrageSkipped: 'taker omitted: pass taker to read arbitrage routes',
      ideas: [ETH_LONG],
      signals: [
        { symbol: 'BTC', bias: 'short', conviction: 0.22 },
        { symbol: 'ETH', bias: 'long', conviction: 0.31 },
        { symbol: 'SOL', bias: 'neutral', conviction: 0.04 },
      ],
      summary: SUMMARY_EXAMPLE,
      disclaimer: 'Indicative, not advice',
    },
  },
  handler: async ({ query }, ctx) => getAlpha(ctx.deps.chain, ctx.deps.market, query, ctx.deps.clock()),
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
