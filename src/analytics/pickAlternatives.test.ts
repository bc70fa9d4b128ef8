import { describe, expect, test } from 'vitest'
import type { IdeaRead } from './ideaFromBars.js'
import { MAX_ALTERNATIVES, pickAlternatives } from './pickAlternatives.js'

function mk(symbol: string, p: Partial<IdeaRead> = {}): IdeaRead {
  const long = (p.direction ?? 'long') === 'long'
  const leverage = p.leverage ?? 10
  return {
    symbol,
    pairIndex: symbol.charCodeAt(0),
    category: 'crypto',
    direction: 'long',
    entry: 100,
    stop: long ? 98 : 102,
    target: long ? 104 : 96,
    liquidation: long ? 91 : 109,
    edge: 0.01,
    leverage,
    maxLeverage: 100,
    conviction: 0.5,
    open: { pairIndex: 0, long, leverage, markPrice: 100, tradeType: 0, tp: 104, sl: 98 },
    ...p,
  }
}

const asset = mk('A', { edge: 0.01, leverage: 10 }) // rate 0.1
const universe = [
  asset,
  mk('B', { edge: 0.02, leverage: 10 }), // rate 0.2: better
  mk('C', { edge: 0.005, leverage: 10 }), // rate 0.05: worse
  mk('D', { edge: 0.03, leverage: 5 }), // rate 0.15: better
  mk('E', { edge: 0.02, leverage: 20, direction: 'short', conviction: 0.4 }), // short crypto
  mk('F', { edge: 0.05, leverage: 20, direction: 'short', category: 'forex', conviction: 0.9 }),
  mk('G', { edge: -0.01, leverage: 50 }), // negative edge: never offered
  mk('H', { edge: null, leverage: 50 }), // no edge: never offered
]
const names = (xs: readonly IdeaRead[]) => xs.map((i) => i.symbol)

describe('pickAlternatives', () => {
  test('behavior: alternatives are same-direction ideas with a higher edge × leverage, best first', () => {
    const r = pickAlternatives({ symbol: 'A', pairIndex: asset.pairIndex, idea: asset }, universe)
    expect(names(r.alternatives)).toEqual(['B', 'D'])
  })

  test('behavior: the hedge is the best opposite idea of the same category before any other', () => {
    const r = pickAlternatives({ symbol: 'A', pairIndex: asset.pairIndex, idea: asset }, universe)
    // F has the higher conviction but is forex; E is crypto like the asset.
    expect(r.hedge?.symbol).toBe('E')
    const noCryptoShort = universe.filter((i) => i.symbol !== 'E')
    expect(
      pickAlternatives({ symbol: 'A', pairIndex: asset.pairIndex, idea: asset }, noCryptoShort).hedge?.symbol,
    ).toBe('F')
    const longsOnly = universe.filter((i) => i.direction === 'long')
    expect(
      pickAlternatives({ symbol: 'A', pairIndex: asset.pairIndex, idea: asset }, longsOnly).hedge,
    ).toBeNull()
  })

  test('behavior: without an idea for the asset, the best ideas by rate, no hedge, never the asset', () => {
    const r = pickAlternatives({ symbol: 'A', pairIndex: asset.pairIndex, idea: null }, universe)
    // rates: F 1.0, E 0.4, B 0.2, D 0.15, A (excluded), C 0.05
    expect(names(r.alternatives)).toEqual(['F', 'E', 'B'])
    expect(r.alternatives).toHaveLength(MAX_ALTERNATIVES)
    expect(r.hedge).toBeNull()
  })

  test('behavior: the best asset of its direction has no alternatives; order of the universe does not matter', () => {
    const best = mk('Z', { edge: 0.1, leverage: 10 })
    const all = [...universe, best]
    const r = pickAlternatives({ symbol: 'Z', pairIndex: best.pairIndex, idea: best }, all)
    expect(r.alternatives).toEqual([])
    expect(
      pickAlternatives({ symbol: 'Z', pairIndex: best.pairIndex, idea: best }, [...all].reverse()),
    ).toEqual(r)
  })

  test('behavior: an empty universe gives nothing', () => {
    expect(pickAlternatives({ symbol: 'A', pairIndex: 1, idea: asset }, [])).toEqual({
      alternatives: [],
      hedge: null,
    })
  })
})
