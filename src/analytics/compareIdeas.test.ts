import { describe, expect, test } from 'vitest'
import { compareIdeas } from './compareIdeas.js'
import type { IdeaRead } from './ideaFromBars.js'

function mk(symbol: string, pairIndex: number, conviction: number, edge: number | null): IdeaRead {
  return {
    symbol,
    pairIndex,
    category: 'crypto',
    direction: 'long',
    entry: 100,
    stop: 98,
    target: 104,
    liquidation: 91,
    edge,
    leverage: 10,
    maxLeverage: 100,
    conviction,
    open: { pairIndex, long: true, leverage: 10, markPrice: 100, tradeType: 0, tp: 104, sl: 98 },
  }
}

describe('compareIdeas', () => {
  test('behavior: conviction descending, then edge descending (null last), then symbol, then pairIndex', () => {
    const ideas = [
      mk('B', 2, 0.5, 0.01),
      mk('A', 1, 0.5, null),
      mk('C', 3, 0.9, -0.01),
      mk('A', 0, 0.5, 0.01),
      mk('A', 4, 0.5, 0.01),
      mk('D', 5, 0.5, 0.02),
    ]
    const order = (xs: IdeaRead[]) => [...xs].sort(compareIdeas).map((i) => `${i.symbol}${i.pairIndex}`)
    expect(order(ideas)).toEqual(['C3', 'D5', 'A0', 'A4', 'B2', 'A1'])
    expect(order([...ideas].reverse())).toEqual(order(ideas))
  })

  test('default: an idea compares equal to a copy of itself', () => {
    const i = mk('A', 0, 0.5, null)
    expect(compareIdeas(i, structuredClone(i))).toBe(0)
  })
})
