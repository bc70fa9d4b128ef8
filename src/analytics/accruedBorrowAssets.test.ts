import { describe, expect, test } from 'vitest'
import { accruedBorrowAssets, accruedTotalBorrowAssets } from './accruedBorrowAssets.js'

const WAD = 10n ** 18n

describe('accruedBorrowAssets', () => {
  // 5% APR per second, WAD: 0.05e18 / 31,536,000 ≈ 1585489599 (rounded down).
  const rate = (5n * WAD) / 100n / 31_536_000n
  const side = {
    totalBorrowAssets: 1_000_000_000_000n, // 1M USDC
    totalBorrowShares: 1_000_000_000_000n * 1_000_000n,
    lastUpdate: 1_000n,
    borrowRate: rate,
  }

  test('behavior: no time elapsed, no interest; shares convert with virtual shares, rounded up', () => {
    expect(accruedTotalBorrowAssets(side, 1_000n)).toBe(side.totalBorrowAssets)
    expect(accruedTotalBorrowAssets(side, 500n)).toBe(side.totalBorrowAssets)
    // 5,000 USDC of shares: 5e9 × 1e6 shares → 5e9 × (1e12 + 1) / (1e18 + 1e6), rounded up.
    const shares = 5_000_000_000n * 1_000_000n
    const expected =
      (shares * (side.totalBorrowAssets + 1n) + side.totalBorrowShares + 1_000_000n - 1n) /
      (side.totalBorrowShares + 1_000_000n)
    expect(accruedBorrowAssets(shares, side, 1_000n)).toBe(expected)
    expect(accruedBorrowAssets(0n, side, 99_999n)).toBe(0n)
  })

  test('behavior: a year at 5% APR compounds to e^0.05 − 1 ≈ 5.127% (third-order Taylor: 5.1271%)', () => {
    const after = accruedTotalBorrowAssets(side, 1_000n + 31_536_000n)
    const growth = Number(after - side.totalBorrowAssets) / Number(side.totalBorrowAssets)
    // x = 0.05: x + x²/2 + x³/6 = 0.0512708333…; e^x − 1 = 0.0512710963…
    expect(growth).toBeCloseTo(0.05127083, 6)
    expect(growth).toBeLessThan(Math.expm1(0.05))
  })

  test('behavior: the exact bigint steps of wTaylorCompounded over one day', () => {
    const dt = 86_400n
    const first = rate * dt
    const second = (first * first) / (2n * WAD)
    const third = (second * first) / (3n * WAD)
    const interest = (side.totalBorrowAssets * (first + second + third)) / WAD
    expect(accruedTotalBorrowAssets(side, 1_000n + dt)).toBe(side.totalBorrowAssets + interest)
  })
})
