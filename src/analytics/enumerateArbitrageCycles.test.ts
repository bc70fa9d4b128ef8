import { describe, expect, test } from 'vitest'
import { enumerateArbitrageCycles } from './enumerateArbitrageCycles.js'

describe('enumerateArbitrageCycles', () => {
  test('behavior: two-leg cycles first, then every ordered pair of distinct intermediates', () => {
    expect(enumerateArbitrageCycles('USDC', ['WETH', 'cbBTC'])).toEqual([
      ['USDC', 'WETH', 'USDC'],
      ['USDC', 'cbBTC', 'USDC'],
      ['USDC', 'WETH', 'cbBTC', 'USDC'],
      ['USDC', 'cbBTC', 'WETH', 'USDC'],
    ])
  })

  test('behavior: three intermediates give 3 two-leg and 6 three-leg cycles', () => {
    const cycles = enumerateArbitrageCycles('cbETH', ['USDC', 'WETH', 'cbBTC'])
    expect(cycles.filter((c) => c.length === 3)).toHaveLength(3)
    expect(cycles.filter((c) => c.length === 4)).toHaveLength(6)
    expect(new Set(cycles.map((c) => c.join('>'))).size).toBe(9)
  })

  test('default: the target and repeats among the intermediates are skipped', () => {
    expect(enumerateArbitrageCycles('WETH', ['USDC', 'WETH', 'USDC'])).toEqual([['WETH', 'USDC', 'WETH']])
  })

  test('default: no intermediates, no cycles', () => {
    expect(enumerateArbitrageCycles('USDC', [])).toEqual([])
    expect(enumerateArbitrageCycles('USDC', ['USDC'])).toEqual([])
  })
})
