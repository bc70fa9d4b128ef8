import { toFunctionSelector } from 'viem'
import { describe, expect, test } from 'vitest'
import { midnightAbi } from '../../chain/midnight.js'
import { WAD } from '../../chain/units.js'
import { aprOf, averagePrice, guardPrice, takeAssets, walkBook } from './fixedMath.js'

const P = (x: number) => BigInt(Math.round(x * 1e6)) * 10n ** 12n

describe('fixed-rate math', () => {
  test('behavior: a borrow walks bids best first, receives exactly the target, and rounds each take down', () => {
    const bids = [
      { price: P(0.95), units: 1_000_000n },
      { price: P(0.97), units: 500_000n },
      { price: P(0.96), units: 2_000_000n },
    ]
    const w = walkBook(bids, 1_000_000n, P(0.9), true)
    expect(w.filled).toBe(true)
    expect(w.fills.map((f) => f.index)).toEqual([1, 2])
    expect(w.fills[0]).toMatchObject({ units: 500_000n, assets: 485_000n })
    // 515,000 left at 0.96: the fewest units whose proceeds cover it.
    const units = (515_000n * WAD + P(0.96) - 1n) / P(0.96)
    expect(w.fills[1]).toMatchObject({ units, assets: (units * P(0.96)) / WAD })
    expect(w.fills.reduce((s, f) => s + f.assets, 0n)).toBe(1_000_000n)
  })

  test('behavior: a lend walks asks best first and pays at most the target, each take rounded up', () => {
    const asks = [
      { price: P(0.99), units: 300_000n },
      { price: P(0.98), units: 300_000n },
    ]
    const w = walkBook(asks, 500_000n, WAD, false)
    expect(w.fills.map((f) => f.index)).toEqual([1, 0])
    const paid = w.fills.reduce((s, f) => s + f.assets, 0n)
    expect(paid).toBeLessThanOrEqual(500_000n)
    expect(500_000n - paid).toBeLessThan(2n)
    expect(w.fills[0]?.assets).toBe(takeAssets(300_000n, P(0.98), false))
  })

  test('error: the guard leaves out offers beyond it and reports the depth within it', () => {
    const bids = [
      { price: P(0.97), units: 100n },
      { price: P(0.9), units: 10_000n },
    ]
    const w = walkBook(bids, 1_000n, guardPrice(P(0.97), 100, true), true)
    expect(w.filled).toBe(false)
    expect(w.availableUnits).toBe(100n)
    expect(w.availableAssets).toBe(97n)
  })

  test('behavior: APR = (1/P − 1) × 31,536,000 / (maturity − now); averages weigh by units', () => {
    expect(aprOf(P(0.95), 1_000 + 31_536_000, 1_000)).toBeCloseTo(1 / 0.95 - 1, 12)
    expect(aprOf(P(0.95), 1_000, 1_000)).toBeNull()
    expect(
      averagePrice([
        { index: 0, price: P(0.9), units: 100n, assets: 90n },
        { index: 1, price: P(0.8), units: 300n, assets: 240n },
      ]),
    ).toBe((330n * WAD) / 400n)
    expect(guardPrice(P(0.99), 200, false)).toBe(WAD)
  })

  test('default: the encoded selectors are Midnight’s (abi/morpho-midnight.json)', () => {
    const sel = (name: string) =>
      toFunctionSelector(midnightAbi.find((f) => f.type === 'function' && f.name === name) as never)
    expect(sel('take')).toBe('0x6a14c9ef')
    expect(sel('supplyCollateral')).toBe('0x32292d96')
    expect(sel('withdrawCollateral')).toBe('0xa121e2a9')
    expect(sel('repay')).toBe('0x6b210f9e')
    expect(sel('withdraw')).toBe('0xa6db1750')
  })
})
