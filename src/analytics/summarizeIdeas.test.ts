import { describe, expect, test } from 'vitest'
import type { IdeaInsufficientHistory, IdeaRead, NeutralRead } from './ideaFromBars.js'
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
    const s = summarizeIdeas(reads)
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
    expect(summarizeIdeas([])).toEqual({
      bestLong: null,
      bestShort: null,
      topByCategory: {},
      breadth: { long: 0, short: 0, neutral: 0 },
    })
    expect(summarizeIdeas([neutral('SPX', 'indices'), short])).toMatchObject({
      bestLong: null,
      bestShort: null,
      breadth: { long: 0, short: 0, neutral: 1 },
    })
  })

  test('behavior: a category named like an Object prototype key is an ordinary key', () => {
    const s = summarizeIdeas([mk('X', 'constructor', 'long', 0.5), mk('Y', '__proto__', 'short', 0.5)])
    expect(Object.keys(s.topByCategory)).toEqual(['__proto__', 'constructor'].sort())
    expect(s.topByCategory['constructor' as string]?.symbol).toBe('X')
  })

  test('behavior: the same input twice, in any order, gives deep-equal output', () => {
    const once = summarizeIdeas(reads)
    expect(summarizeIdeas(structuredClone(reads))).toEqual(once)
    expect(summarizeIdeas([...reads].reverse())).toEqual(once)
  })
})
