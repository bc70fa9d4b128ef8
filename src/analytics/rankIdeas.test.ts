import { describe, expect, test } from 'vitest'
import type { IdeaRead } from './ideaFromBars.js'
import { MIN_EDGE, rankIdeas, type SkippedIdea, selectIdeas } from './rankIdeas.js'

/** An idea with entry 100 and stop 2 away. */
function mk(symbol: string, p: Partial<IdeaRead> = {}): IdeaRead {
  const direction = p.direction ?? 'long'
  const long = direction === 'long'
  const stop = long ? 98 : 102
  const leverage = p.leverage ?? 10
  return {
    symbol,
    pairIndex: symbol.charCodeAt(0),
    category: 'crypto',
    direction,
    entry: 100,
    stop,
    target: long ? 104 : 96,
    liquidation: long ? 91 : 109,
    edge: 0.01,
    leverage,
    maxLeverage: 100,
    conviction: 0.5,
    open: {
      pairIndex: symbol.charCodeAt(0),
      long,
      leverage,
      markPrice: 100,
      tradeType: 0,
      tp: long ? 104 : 96,
      sl: stop,
    },
    ...p,
  }
}

const ideas = [
  mk('A', { conviction: 0.6, edge: 0.006, leverage: 5 }), // under the strict threshold, rate 0.03
  mk('B', { conviction: 0.9, edge: 0.02, leverage: 2 }), // rate 0.04
  mk('C', { conviction: 0.6, edge: 0.008, leverage: 3 }), // at the strict threshold, rate 0.024
  mk('D', { conviction: 0.7, edge: 0.003, leverage: 20, direction: 'short' }), // rate 0.06
  mk('E', { conviction: 0.8, edge: 0.01, leverage: 4, category: 'forex' }), // rate 0.04
  mk('F', { conviction: 0.2, edge: -0.004, leverage: 50 }), // negative: never listed
  mk('G', { conviction: 0.95, edge: null }), // no edge: never listed
]

const names = (xs: IdeaRead[]) => xs.map((i) => i.symbol)

describe('rankIdeas', () => {
  test('behavior: loose lists every positive-edge idea by conviction, ties by edge then symbol', () => {
    expect(names(rankIdeas(ideas, { limit: 12, worthwhileness: 'loose', ranking: 'conviction' }))).toEqual([
      'B',
      'E',
      'D',
      'C',
      'A',
    ])
  })

  test('behavior: strict drops edges under 0.008 and keeps one idea per direction per category', () => {
    // A (0.006) and D (0.003) are out, C (0.008) is in at the threshold; of the crypto longs B (0.9) beats C and A; E is forex's long.
    expect(names(rankIdeas(ideas, { limit: 12, worthwhileness: 'strict', ranking: 'conviction' }))).toEqual([
      'B',
      'E',
    ])
    const twoShorts = [
      ...ideas,
      mk('H', { direction: 'short', edge: 0.01, conviction: 0.4 }),
      mk('I', { direction: 'short', edge: 0.012, conviction: 0.4 }),
    ]
    expect(
      names(rankIdeas(twoShorts, { limit: 12, worthwhileness: 'strict', ranking: 'conviction' })),
    ).toEqual(['B', 'E', 'I'])
  })

  test('behavior: edge-rate orders by edge × leverage, ties by the conviction order', () => {
    // rates: D 0.06, B 0.04, E 0.04 (B's conviction 0.9 first), A 0.03, C 0.024.
    expect(names(rankIdeas(ideas, { limit: 12, worthwhileness: 'loose', ranking: 'edge-rate' }))).toEqual([
      'D',
      'B',
      'E',
      'A',
      'C',
    ])
  })

  test('behavior: limit cuts the ranked list; limit 0 is empty', () => {
    expect(names(rankIdeas(ideas, { limit: 2, worthwhileness: 'loose', ranking: 'conviction' }))).toEqual([
      'B',
      'E',
    ])
    expect(rankIdeas(ideas, { limit: 0, worthwhileness: 'loose', ranking: 'conviction' })).toEqual([])
    expect(rankIdeas([], { limit: 6, worthwhileness: 'strict', ranking: 'edge-rate' })).toEqual([])
  })

  test('behavior: full ties break by symbol then pairIndex; any input order gives the same list', () => {
    const tied = [mk('Z'), mk('M'), mk('M', { pairIndex: 3 }), mk('Q')]
    const expected = rankIdeas(tied, { limit: 12, worthwhileness: 'loose', ranking: 'edge-rate' })
    expect(expected.map((i) => `${i.symbol}${i.pairIndex}`)).toEqual(['M3', 'M77', 'Q81', 'Z90'])
    for (const order of [
      [3, 2, 1, 0],
      [1, 3, 0, 2],
      [2, 0, 3, 1],
    ]) {
      const shuffled = order.map((k) => tied[k] as IdeaRead)
      expect(rankIdeas(shuffled, { limit: 12, worthwhileness: 'loose', ranking: 'edge-rate' })).toEqual(
        expected,
      )
      expect(rankIdeas(shuffled, { limit: 12, worthwhileness: 'loose', ranking: 'conviction' })).toEqual(
        expected,
      )
    }
  })

  test('behavior: the same input twice gives deep-equal output and the input is not reordered', () => {
    const copy = structuredClone(ideas)
    const once = rankIdeas(ideas, { limit: 6, worthwhileness: 'strict', ranking: 'edge-rate' })
    expect(rankIdeas(copy, { limit: 6, worthwhileness: 'strict', ranking: 'edge-rate' })).toEqual(once)
    expect(ideas).toEqual(copy)
  })

  test('error: a limit that is not a non-negative integer throws RangeError', () => {
    expect(() => rankIdeas(ideas, { limit: -1, worthwhileness: 'loose', ranking: 'conviction' })).toThrow(
      RangeError,
    )
    expect(() => rankIdeas(ideas, { limit: 1.5, worthwhileness: 'loose', ranking: 'conviction' })).toThrow(
      RangeError,
    )
  })
})

describe('selectIdeas', () => {
  const why = (xs: SkippedIdea[]) => xs.map((x) => [x.symbol, x.reason, x.keptBy ?? x.rank ?? x.edge])

  test('behavior: the issue’s case: BTC and SOL neutral, ETH a long with edge −0.0489: nothing listed, ETH skipped as edge_below_threshold with its edge and the 0.008 threshold', () => {
    const eth = mk('ETH', { edge: -0.0489, conviction: 0.2 })
    const s = selectIdeas([eth], { limit: 3, worthwhileness: 'strict', ranking: 'edge-rate' })
    expect(s.listed).toEqual([])
    expect(s.skipped).toEqual([
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
    expect(MIN_EDGE.strict).toBe(0.008)
  })

  test('behavior: strict: under the threshold, a category and direction already taken, or past the limit, each with its reason', () => {
    const all = selectIdeas(ideas, { limit: 12, worthwhileness: 'strict', ranking: 'conviction' })
    expect(names(all.listed)).toEqual(['B', 'E'])
    // C passes the threshold but B holds crypto longs; the rest fail it, highest edge first, null last.
    expect(why(all.skipped)).toEqual([
      ['C', 'category_direction_taken', 'B'],
      ['A', 'edge_below_threshold', 0.006],
      ['D', 'edge_below_threshold', 0.003],
      ['F', 'edge_below_threshold', -0.004],
      ['G', 'edge_below_threshold', null],
    ])
    for (const x of all.skipped) expect(x.threshold).toBe(0.008)
    const one = selectIdeas(ideas, { limit: 1, worthwhileness: 'strict', ranking: 'conviction' })
    expect(names(one.listed)).toEqual(['B'])
    expect(why(one.skipped).slice(0, 2)).toEqual([
      ['E', 'beyond_limit', 2],
      ['C', 'category_direction_taken', 'B'],
    ])
  })

  test('behavior: loose: threshold 0, ranks past the limit in edge-rate order', () => {
    const s = selectIdeas(ideas, { limit: 2, worthwhileness: 'loose', ranking: 'edge-rate' })
    expect(names(s.listed)).toEqual(['D', 'B'])
    expect(why(s.skipped)).toEqual([
      ['E', 'beyond_limit', 3],
      ['A', 'beyond_limit', 4],
      ['C', 'beyond_limit', 5],
      ['F', 'edge_below_threshold', -0.004],
      ['G', 'edge_below_threshold', null],
    ])
    for (const x of s.skipped) expect(x.threshold).toBe(0)
  })

  test('behavior: every idea given is listed or skipped, exactly once, for every listing; the listed equal rankIdeas’s', () => {
    const more = [...ideas, mk('H', { direction: 'short', edge: 0.01, conviction: 0.4, category: 'forex' })]
    for (const worthwhileness of ['strict', 'loose'] as const)
      for (const ranking of ['edge-rate', 'conviction'] as const)
        for (const limit of [0, 1, 2, 3, 12]) {
          const opts = { limit, worthwhileness, ranking }
          const s = selectIdeas(more, opts)
          const seen = [...names(s.listed), ...s.skipped.map((x) => x.symbol)].sort()
          expect(seen, JSON.stringify(opts)).toEqual(more.map((i) => i.symbol).sort())
          expect(s.listed).toEqual(rankIdeas(more, opts))
          for (const x of s.skipped) {
            expect(x.threshold).toBe(MIN_EDGE[worthwhileness])
            if (x.reason === 'beyond_limit') expect(x.rank as number).toBeGreaterThan(limit)
            if (x.reason === 'category_direction_taken') {
              const holder = more.find((i) => i.symbol === x.keptBy) as IdeaRead
              expect([holder.category, holder.direction]).toEqual([x.category, x.direction])
            }
          }
          expect(selectIdeas([...more].reverse(), opts)).toEqual(s)
        }
  })
})
