import { describe, expect, test } from 'vitest'
import { SECONDS_PER_YEAR } from '../chain/units.js'
import {
  aaveRateToApy,
  metaMorphoApy,
  morphoRateToApy,
  morphoSupplyApy,
  morphoSupplyAssets,
  sharePriceApy,
  utilization,
} from './lendingApy.js'

const WAD = 10n ** 18n
const RAY = 10n ** 27n

describe('morphoRateToApy', () => {
  test('behavior: a per-second WAD rate compounds continuously: ln(1.05)/year per second is 5% a year', () => {
    const perSecond = BigInt(Math.round((Math.log(1.05) / SECONDS_PER_YEAR) * 1e18))
    expect(morphoRateToApy(perSecond)).toBeCloseTo(0.05, 9)
  })

  test('behavior: it is the limit of per-second compounding (difference far below a basis point)', () => {
    const perSecond = 1_585_489_599n // about 5% APR
    const r = Number(perSecond) / 1e18
    const perSecondCompounded = (1 + r) ** SECONDS_PER_YEAR - 1
    expect(Math.abs(morphoRateToApy(perSecond) - perSecondCompounded)).toBeLessThan(1e-8)
  })

  test('behavior: a zero rate is a zero APY', () => {
    expect(morphoRateToApy(0n)).toBe(0)
  })
})

describe('aaveRateToApy', () => {
  test('behavior: a ray APR compounds per second: (1 + APR/year)^year − 1', () => {
    const apr = 0.05
    // Naive floating-point power (its own rounding is about 1e-9)…
    expect(aaveRateToApy((5n * RAY) / 100n)).toBeCloseTo(
      (1 + apr / SECONDS_PER_YEAR) ** SECONDS_PER_YEAR - 1,
      8,
    )
    // …and the series N·ln(1 + apr/N) = apr − apr²/2N + …, exact to double precision.
    expect(aaveRateToApy((5n * RAY) / 100n)).toBeCloseTo(
      Math.expm1(apr - apr ** 2 / (2 * SECONDS_PER_YEAR)),
      14,
    )
    // Slightly above the APR, slightly below continuous compounding.
    expect(aaveRateToApy((5n * RAY) / 100n)).toBeGreaterThan(0.05)
    expect(aaveRateToApy((5n * RAY) / 100n)).toBeLessThan(Math.expm1(0.05))
  })

  test('behavior: a zero rate is a zero APY', () => {
    expect(aaveRateToApy(0n)).toBe(0)
  })
})

describe('Morpho market supply side', () => {
  test('behavior: utilization is borrow over supply, 0 for an empty market', () => {
    expect(utilization(14n, 20n)).toBe(0.7)
    expect(utilization(0n, 0n)).toBe(0)
  })

  test('behavior: supply APY = borrow APY × utilization × (1 − fee)', () => {
    expect(morphoSupplyApy(0.1, 0.5, WAD / 10n)).toBeCloseTo(0.045, 15)
    expect(morphoSupplyApy(0.1, 0.5, 0n)).toBeCloseTo(0.05, 15)
  })

  test('behavior: supply shares convert to assets with Morpho’s virtual shares, rounded down', () => {
    // The first supply of 1 USDC into an empty market mints 1e12 shares; they convert back to exactly 1 USDC.
    expect(morphoSupplyAssets(10n ** 12n, 10n ** 6n, 10n ** 12n)).toBe(10n ** 6n)
    // 1 share of 3 assets over 2 shares: (3 + 1) / (2 + 1e6) rounds down to 0.
    expect(morphoSupplyAssets(1n, 3n, 2n)).toBe(0n)
    expect(morphoSupplyAssets(0n, 10n ** 6n, 10n ** 12n)).toBe(0n)
  })
})

describe('metaMorphoApy', () => {
  test('behavior: supply APYs weighted by assets, then the vault fee off', () => {
    const apy = metaMorphoApy(
      [
        { assets: 3_000_000n, supplyApy: 0.04 },
        { assets: 1_000_000n, supplyApy: 0.08 },
      ],
      WAD / 10n,
    )
    expect(apy?.grossApy).toBeCloseTo(0.05, 15)
    expect(apy?.netApy).toBeCloseTo(0.045, 15)
  })

  test('behavior: a vault that holds nothing has no APY (null), not 0', () => {
    expect(metaMorphoApy([], 0n)).toBeNull()
    expect(metaMorphoApy([{ assets: 0n, supplyApy: 0.05 }], 0n)).toBeNull()
  })
})

describe('sharePriceApy', () => {
  const week = 7 * 86_400

  test('behavior: share-price growth over the window, annualized by compounding', () => {
    expect(sharePriceApy(1_000_000n, 1_001_000n, week, 86_400)).toBeCloseTo(1.001 ** (365 / 7) - 1, 12)
  })

  test('behavior: an unchanged share price is a 0 APY and a falling one is negative', () => {
    expect(sharePriceApy(1_000_000n, 1_000_000n, week, 86_400)).toBe(0)
    expect(sharePriceApy(1_000_000n, 999_000n, week, 86_400)).toBeLessThan(0)
  })

  test('error: a window under the minimum, a zero price or no elapsed time gives null', () => {
    expect(sharePriceApy(1_000_000n, 1_001_000n, 3600, 86_400)).toBeNull()
    expect(sharePriceApy(0n, 1_001_000n, week, 86_400)).toBeNull()
    expect(sharePriceApy(1_000_000n, 1_001_000n, 0, 0)).toBeNull()
  })
})
