import { describe, expect, test } from 'vitest'
import { type AaveAccount, analyzeAaveAccount } from './analyzeAaveAccount.js'

const WAD = 10n ** 18n
const YEAR = 31_536_000
const usd = (dollars: bigint) => dollars * 10n ** 8n

/** The test's own Aave math (GenericLogic): percentMul and wadDiv, both rounding half up. */
const percentMul = (value: bigint, bps: bigint) => (value * bps + 5_000n) / 10_000n
const wadDiv = (a: bigint, b: bigint) => (a * WAD + b / 2n) / b
/** Health ≥ target exactly (target in millionths). */
const atLeast = (capacity: bigint, debt: bigint, targetMicro: bigint) =>
  capacity * 1_000_000n >= targetMicro * debt

const account = (over: Partial<AaveAccount>): AaveAccount => ({
  totalCollateralBase: usd(10_000n),
  totalDebtBase: usd(5_000n),
  currentLiquidationThreshold: 8_250n,
  borrowApr: null,
  ...over,
})

describe('analyzeAaveAccount', () => {
  test('behavior: a healthy account, figures computed by hand', () => {
    // 10000 USD × 82.5% = 8250 USD capacity on 5000 USD debt → HF 1.65. Liquidation when the collateral is
    // worth 5000 / 0.825 = 6060.61 USD, 39.394% below today. Stress: 9000 → 7425 / 5000 = 1.485;
    // 8000 → 1.32; 7000 → 1.155.
    const a = analyzeAaveAccount(account({}))
    expect(a.healthFactor).toBe(1.65)
    expect(a.status).toBe('solvent')
    expect(a.collateralUsd).toBe(10_000)
    expect(a.debtUsd).toBe(5_000)
    expect(a.liquidationCollateralUsd).toBeCloseTo(6060.6060606, 5)
    expect(a.liquidationDistancePct).toBeCloseTo(39.39394, 4)
    expect(a.stress).toEqual([
      { collateralChangePct: -10, collateralUsd: 9_000, healthFactor: 1.485, liquidatable: false },
      { collateralChangePct: -20, collateralUsd: 8_000, healthFactor: 1.32, liquidatable: false },
      { collateralChangePct: -30, collateralUsd: 7_000, healthFactor: 1.155, liquidatable: false },
    ])
    expect(a.restore).toEqual({ targetHealth: 1.5, repay: null, supplyCollateral: null })
    expect(a.timeToLiquidationSec).toBeNull()
    expect(a.advice).toBe("Healthy: the collateral's value can fall about 39.3% before liquidation.")
  })

  test("behavior: the health factor is Aave's own, with its half-up rounding", () => {
    // 3 base × 82.5% = 2.475 → percentMul rounds to 2; 2 / 3 = 0.666…67 as a half-up WAD division.
    const a = analyzeAaveAccount(account({ totalCollateralBase: 3n, totalDebtBase: 3n }))
    expect(a.healthFactor).toBe(Number(wadDiv(percentMul(3n, 8_250n), 3n)) / 1e18)
    expect(a.status).toBe('liquidatable')
    // A mid-sized real-looking account, against the test's own formula.
    const c = 1_234_567_890_123n
    const d = 987_654_321_987n
    const b = analyzeAaveAccount(
      account({ totalCollateralBase: c, totalDebtBase: d, currentLiquidationThreshold: 7_812n }),
    )
    expect(b.healthFactor).toBe(Number(wadDiv(percentMul(c, 7_812n), d)) / 1e18)
  })

  test('behavior: restore to a target of 2, by hand and tight to one base unit', () => {
    // Repay: debt ≤ floor(8250 / 2) = 4125 USD → repay 875 USD = 87500000000 base.
    // Collateral: 10000 USD capacity needed → value × 8250 + 5000 ≥ 1e16 → value ≥ 1212121212121 base
    // (1212121212120 × 8250 + 5000 = 9999999999995000 falls short) → add 212121212121 base = 2121.21 USD.
    const p = account({ targetHealth: 2 })
    const a = analyzeAaveAccount(p)
    expect(a.restore.repay).toEqual({ base: '87500000000', usd: 875, healthFactorAfter: 2 })
    expect(a.restore.supplyCollateral?.base).toBe('212121212121')
    expect(a.restore.supplyCollateral?.usd).toBeCloseTo(2121.21212121, 8)
    expect(a.advice).toBe(
      "At risk: the collateral's value can fall about 39.3% before liquidation; repay 875 USD of debt or add 2121.22 USD of collateral to reach health 2.",
    )
    const lt = p.currentLiquidationThreshold
    const cap = percentMul(p.totalCollateralBase, lt)
    expect(atLeast(cap, p.totalDebtBase - 87_500_000_000n, 2_000_000n)).toBe(true)
    expect(atLeast(cap, p.totalDebtBase - 87_499_999_999n, 2_000_000n)).toBe(false)
    const add = 212_121_212_121n
    expect(atLeast(percentMul(p.totalCollateralBase + add, lt), p.totalDebtBase, 2_000_000n)).toBe(true)
    expect(atLeast(percentMul(p.totalCollateralBase + add - 1n, lt), p.totalDebtBase, 2_000_000n)).toBe(false)
  })

  test('behavior: below health 1 is liquidatable with a negative distance', () => {
    // 10000 × 0.825 = 8250 capacity on 9000 debt → HF 0.916…; liquidation at 9000 / 0.825 = 10909.09 (−9.09%).
    const a = analyzeAaveAccount(account({ totalDebtBase: usd(9_000n), borrowApr: 0.05 }))
    expect(a.status).toBe('liquidatable')
    expect(a.healthFactor).toBeCloseTo(0.9166666667, 9)
    expect(a.liquidationDistancePct).toBeCloseTo(-9.090909, 5)
    expect(a.timeToLiquidationSec).toBe(0)
    expect(a.advice.startsWith('Liquidatable now: repay ')).toBe(true)
  })

  test('behavior: time to liquidation from a per-second-compounded APR', () => {
    // HF 1.65 at 5% APR, compounded per second: the debt × 1.65 after ln(1.65) / ln(1 + 0.05 / year) s ≈ 10.016 years.
    const a = analyzeAaveAccount(account({ borrowApr: 0.05 }))
    const t = a.timeToLiquidationSec!
    expect(t / YEAR).toBeCloseTo(10.016, 2)
    expect(5000 * (1 + 0.05 / YEAR) ** t).toBeCloseTo(8250, 2)
    expect(analyzeAaveAccount(account({ borrowApr: 0 })).timeToLiquidationSec).toBeNull()
  })

  test('behavior: no debt answers null health and nothing to restore', () => {
    const a = analyzeAaveAccount(account({ totalDebtBase: 0n, borrowApr: 0.05 }))
    expect(a).toMatchObject({
      healthFactor: null,
      status: 'solvent',
      liquidationCollateralUsd: null,
      liquidationDistancePct: null,
      timeToLiquidationSec: null,
      restore: { repay: null, supplyCollateral: null },
      advice: 'No debt: nothing can be liquidated.',
    })
  })

  test('behavior: a zero threshold (no collateral counts) leaves only the repay', () => {
    const a = analyzeAaveAccount(account({ currentLiquidationThreshold: 0n }))
    expect(a.status).toBe('liquidatable')
    expect(a.liquidationCollateralUsd).toBeNull()
    expect(a.restore.repay?.base).toBe(usd(5_000n).toString())
    expect(a.restore.supplyCollateral).toBeNull()
  })

  test('error: bad inputs are refused', () => {
    expect(() => analyzeAaveAccount(account({ currentLiquidationThreshold: 10_001n }))).toThrow(RangeError)
    expect(() => analyzeAaveAccount(account({ borrowApr: -0.1 }))).toThrow(RangeError)
    expect(() => analyzeAaveAccount(account({ targetHealth: 0.9 }))).toThrow(RangeError)
    expect(() => analyzeAaveAccount(account({ totalDebtBase: -1n }))).toThrow(RangeError)
  })
})
