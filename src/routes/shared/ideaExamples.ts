/**
 * The ideas every ideas example tells its story with (GET /v1/ideas, /v1/ideas/compare, /v1/ideas/summary,
 * /v1/alpha).
 */
import type { z } from 'zod'
import type { idea } from '../../analytics/ideaFromBars.js'
import type { summaryOutput } from '../../market/getIdeasSummary.js'

/** Ranked-list ideas: target, liquidation and edge are filled by single-asset reads only. */
export const ETH_LONG = {
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

export const BTC_SHORT = {
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
export const SOL_NEUTRAL_TAIL = {
  skipped: {
    neutral: [{ symbol: 'SOL', reason: 'no_trend' as const }],
    insufficientHistory: [],
    unknown: [],
    unavailable: [],
  },
  disclaimer: 'Indicative, not advice',
}

export const SUMMARY_EXAMPLE = {
  basis: '1d-1y',
  bestLong: ETH_LONG,
  bestShort: BTC_SHORT,
  topByCategory: { crypto: ETH_LONG },
  breadth: { long: 1, short: 1, neutral: 1 },
  universe: ['BTC', 'ETH', 'SOL'],
  ...SOL_NEUTRAL_TAIL,
} satisfies z.input<typeof summaryOutput>
