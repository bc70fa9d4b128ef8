import { describe, expect, test } from 'vitest'
import { rankArbitrageRoutes } from './rankArbitrageRoutes.js'

const route = (netUsd: number, ...path: string[]) => ({ netUsd, path })

describe('rankArbitrageRoutes', () => {
  test('behavior: only positive net, best first, numbered from 1', () => {
    const ranked = rankArbitrageRoutes([
      route(0.5, 'USDC', 'a', 'WETH', 'b', 'USDC'),
      route(-1, 'USDC', 'c', 'cbBTC', 'd', 'USDC'),
      route(0, 'USDC', 'e', 'WETH', 'f', 'USDC'),
      route(2.25, 'USDC', 'g', 'WETH', 'h', 'USDC'),
    ])
    expect(ranked.map((r) => [r.rank, r.netUsd, r.path[1]])).toEqual([
      [1, 2.25, 'g'],
      [2, 0.5, 'a'],
    ])
  })

  test('behavior: ties are broken by the path string, ascending, whatever the input order', () => {
    const a = route(1, 'USDC', 'Aerodrome_V2', 'WETH', 'Uniswap_V3 0.05%', 'USDC')
    const b = route(1, 'USDC', 'Uniswap_V3 0.05%', 'WETH', 'Aerodrome_V2', 'USDC')
    expect(rankArbitrageRoutes([b, a]).map((r) => r.path)).toEqual([a.path, b.path])
    expect(rankArbitrageRoutes([a, b]).map((r) => r.path)).toEqual([a.path, b.path])
  })

  test('default: at most 10 routes; no route gives an empty list', () => {
    const many = Array.from({ length: 14 }, (_, i) => route(i + 1, 'USDC', `v${i}`, 'USDC'))
    const ranked = rankArbitrageRoutes(many)
    expect(ranked).toHaveLength(10)
    expect(ranked[0]?.netUsd).toBe(14)
    expect(ranked[9]).toMatchObject({ rank: 10, netUsd: 5 })
    expect(rankArbitrageRoutes([])).toEqual([])
    expect(rankArbitrageRoutes(many, 3).map((r) => r.netUsd)).toEqual([14, 13, 12])
  })
})
