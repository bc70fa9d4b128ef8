import { describe, expect, test } from 'vitest'
import type { IdeaInsufficientHistory, IdeaRead, NeutralRead } from './ideaFromBars.js'
import { selectIdeas } from './rankIdeas.js'
import { summarizeIdeas } from './summarizeIdeas.js'

function mk(
  symbol: string,
  category: string,
  direction: 'long' | 'short',
  conviction: number,
  edge = 0.01,
): IdeaRead {
  const long = direction === 'long'
  return {
    symbol,
    pairIndex: symbol.length,
    category,
    direction,
    entry: 100,
    stop: long ? 98 : 102,
    target: long ? 104 : 96,
    liquidation: long ? 91 : 109,
    edge,
    leverage: 10,
    maxLeverage: 100,
    conviction,
    open: {
      pairIndex: symbol.length,
      long,
      leverage: 10,
      markPrice: 100,
      tradeType: 0,
      tp: long ? 104 : 96,
      sl: long ? 98 : 102,
    },
  }
}
const neutral = (symbol: string, category: string): NeutralRead => ({
  status: 'neutral',
  symbol,
  category,
  reason: 'no_trend',
})
const STRICT = { worthwhileness: 'strict' } as const
const short: IdeaInsufficientHistory = { status: 'insufficient_history', symbol: 'NEW', needed: 25, got: 3 }

const reads = [
  mk('ETH', 'crypto', 'long', 0.6),
  mk('BTC', 'crypto', 'short', 0.7),
  mk('SOL', 'crypto', 'long', 0.6, 0.02),
  mk('EURUSD', 'forex', 'short', 0.4),
  mk('XAU', 'commodities', 'long', 0.3),
  mk('AAPL', 'stocks', 'short', 0.8),
  neutral('SPX', 'indices'),
  neutral('GBPUSD', 'forex'),
  short,
]

describe('summarizeIdeas', () => {
  test('behavior: best long, best short, top per category and breadth counts', () => {
    const s = summarizeIdeas(reads, STRICT)
    // SOL ties ETH on conviction and wins on edge.
    expect(s.bestLong?.symbol).toBe('SOL')
    expect(s.bestShort?.symbol).toBe('AAPL')
    expect(Object.keys(s.topByCategory)).toEqual(['commodities', 'crypto', 'forex', 'stocks'])
    expect(s.topByCategory.crypto?.symbol).toBe('BTC')
    expect(s.topByCategory.forex?.symbol).toBe('EURUSD')
    expect(s.topByCategory.commodities?.symbol).toBe('XAU')
    // insufficient_history counts in none of the three.
    expect(s.breadth).toEqual({ long: 3, short: 3, neutral: 2 })
  })

  test('default: no reads, or only neutral ones, give nulls, no categories and zero counts', () => {
    expect(summarizeIdeas([], STRICT)).toEqual({
      bestLong: null,
      bestShort: null,
      topByCategory: {},
      breadth: { long: 0, short: 0, neutral: 0 },
      eligible: [],
      belowThreshold: [],
    })
    expect(summarizeIdeas([neutral('SPX', 'indices'), short], STRICT)).toMatchObject({
      bestLong: null,
      bestShort: null,
      breadth: { long: 0, short: 0, neutral: 1 },
    })
  })

  test('behavior: a category named like an Object prototype key is an ordinary key', () => {
    const s = summarizeIdeas(
      [mk('X', 'constructor', 'long', 0.5), mk('Y', '__proto__', 'short', 0.5)],
      STRICT,
    )
    expect(Object.keys(s.topByCategory)).toEqual(['__proto__', 'constructor'].sort())
    expect(s.topByCategory['constructor' as string]?.symbol).toBe('X')
  })

  test('behavior: the same input twice, in any order, gives deep-equal output', () => {
    const once = summarizeIdeas(reads, STRICT)
    expect(summarizeIdeas(structuredClone(reads), STRICT)).toEqual(once)
    expect(summarizeIdeas([...reads].reverse(), STRICT)).toEqual(once)
  })
})

describe('summarizeIdeas at a threshold', () => {
  test('behavior: the issue’s case: BTC and SOL neutral, ETH a long with edge −0.0489: no best long, ETH below the threshold with its edge and 0.008', () => {
    const issue = [
      neutral('BTC', 'crypto'),
      mk('ETH', 'crypto', 'long', 0.2, -0.0489),
      neutral('SOL', 'crypto'),
    ]
    const s = summarizeIdeas(issue, STRICT)
    expect([s.bestLong, s.bestShort, s.topByCategory, s.eligible]).toEqual([null, null, {}, []])
    expect(s.belowThreshold).toEqual([
      {
        symbol: 'ETH',
        category: 'crypto',
        direction: 'long',
        edge: -0.0489,
        reason: 'edge_below_threshold',
        threshold: 0.008,
        keptBy: null,
        rank: null,
      },
    ])
    // The direction still counts market-wide.
    expect(s.breadth).toEqual({ long: 1, short: 0, neutral: 2 })
  })

  test('behavior: the picks are drawn from the ideas GET /v1/ideas’s threshold passes (listed or left out only by its cap or limit); strict and loose differ on an edge in (0, 0.008)', () => {
    const thin = [
      ...reads,
      mk('DOGE', 'crypto', 'long', 0.99, 0.004), // the highest conviction, but under strict's threshold
      mk('XAG', 'commodities', 'short', 0.95, -0.01),
    ]
    for (const worthwhileness of ['strict', 'loose'] as const) {
      const s = summarizeIdeas(thin, { worthwhileness })
      const sel = selectIdeas(
        thin.filter((r): r is IdeaRead => !('status' in r)),
        { limit: 12, worthwhileness, ranking: 'edge-rate' },
      )
      const passed = [
        ...sel.listed.map((i) => i.symbol),
        ...sel.skipped.filter((x) => x.reason !== 'edge_below_threshold').map((x) => x.symbol),
      ]
      expect([...s.eligible.map((i) => i.symbol)].sort(), worthwhileness).toEqual(passed.sort())
      expect(s.belowThreshold).toEqual(sel.skipped.filter((x) => x.reason === 'edge_below_threshold'))
      const picks = [s.bestLong, s.bestShort, ...Object.values(s.topByCategory)]
      for (const p of picks)
        if (p !== null) expect(passed, `${worthwhileness} ${p.symbol}`).toContain(p.symbol)
      expect(s.belowThreshold.map((x) => x.symbol)).not.toContain(s.bestLong?.symbol)
    }
    expect(summarizeIdeas(thin, STRICT).bestLong?.symbol).toBe('SOL')
    expect(summarizeIdeas(thin, STRICT).belowThreshold.map((x) => x.symbol)).toEqual(['DOGE', 'XAG'])
    expect(summarizeIdeas(thin, { worthwhileness: 'loose' }).bestLong?.symbol).toBe('DOGE')
    expect(summarizeIdeas(thin, { worthwhileness: 'loose' }).topByCategory.commodities?.symbol).toBe('XAU')
  })
})
