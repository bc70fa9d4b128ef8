import { describe, expect, test } from 'vitest'
import { analyzeLoan, type LoanPosition } from './analyzeLoan.js'

const WAD = 10n ** 18n
const SCALE = 10n ** 36n
const YEAR = 31_536_000

/** The test's own Morpho math: max borrow = floor(floor(collateral × price / 1e36) × lltv / 1e18). */
function maxBorrow(collateral: bigint, price: bigint, lltv: bigint): bigint {
  return (((collateral * price) / SCALE) * lltv) / WAD
}
/** Health ≥ target, exactly: maxBorrow / debt ≥ target (the target given in millionths). */
function atLeast(maxB: bigint, debt: bigint, targetMicro: bigint): boolean {
  return maxB * 1_000_000n >= targetMicro * debt
}

/** 3000 USDC per WETH as a Morpho oracle price: 3000 × 1e6 USDC atomic per 1e18 WETH atomic × 1e36. */
const WETH_USDC_3000 = (3000n * 10n ** 6n * SCALE) / 10n ** 18n

const wethUsdc = (over: Partial<LoanPosition>): LoanPosition => ({
  collateral: 2n * WAD, // 2 WETH
  collateralDecimals: 18,
  collateralSymbol: 'WETH',
  debt: 2000n * 10n ** 6n, // 2000 USDC
  loanDecimals: 6,
  loanSymbol: 'USDC',
  oraclePrice: WETH_USDC_3000,
  lltv: 860_000_000_000_000_000n, // 86%
  borrowRatePerSecond: null,
  ...over,
})

/** A per-second WAD rate for a continuous APR. */
const perSecondWad = (apr: number) => BigInt(Math.round((apr / YEAR) * 1e18))

describe('analyzeLoan', () => {
  test('behavior: a healthy WETH/USDC borrow, figures computed by hand', () => {
    // 2 WETH × 3000 = 6000 USDC of collateral; × 0.86 = 5160 USDC max borrow; debt 2000 → HF 2.58.
    // Liquidation price 2000 / (2 × 0.86) = 1162.790697…; distance (3000 − 1162.79) / 3000 = 61.2403%.
    const a = analyzeLoan(wethUsdc({}))
    expect(a.healthFactor).toBe(2.58)
    expect(a.status).toBe('solvent')
    expect(a.price).toBeCloseTo(3000, 9)
    expect(a.liquidationPrice).toBeCloseTo(1162.7906976744, 6)
    expect(a.liquidationDistancePct).toBeCloseTo(61.24031, 4)
    // Stress: 2700 → 5400 × 0.86 = 4644 / 2000 = 2.322; 2400 → 2.064; 2100 → 1.806.
    expect(a.stress.map((s) => s.priceChangePct)).toEqual([-10, -20, -30])
    expect(a.stress.map((s) => s.price)).toEqual([2700, 2400, 2100])
    expect(a.stress.map((s) => s.healthFactor)).toEqual([2.322, 2.064, 1.806])
    expect(a.stress.every((s) => !s.liquidatable)).toBe(true)
    // HF 2.58 ≥ 1.5: nothing to restore.
    expect(a.restore).toEqual({ targetHealth: 1.5, repay: null, supplyCollateral: null })
    expect(a.advice).toBe('Healthy: WETH can fall about 61.2% before liquidation.')
  })

  test('behavior: time to liquidation from interest alone: ln(HF) / rate; the debt then meets the max borrow', () => {
    // 5% continuous APR: the debt grows × 2.58 after ln(2.58) / 0.05 = 18.9558 years.
    const rate = perSecondWad(0.05)
    const a = analyzeLoan(wethUsdc({ borrowRatePerSecond: rate }))
    const t = a.timeToLiquidationSec!
    expect(t / YEAR).toBeCloseTo(18.9558, 3)
    const r = Number(rate) / 1e18
    // Independent check: debt × e^(r t) is the max borrow (5160 USDC), one second later it is above it.
    expect(2000 * Math.exp(r * t)).toBeCloseTo(5160, 3)
    expect(2000 * Math.exp(r * (t + 1))).toBeGreaterThan(5160)
  })

  test('behavior: below target, the repay and the collateral that restore 1.5, by hand and tight to one atomic unit', () => {
    // Debt 4000 USDC on 5160 max borrow: HF 1.29, liquidation at 4000 / 1.72 = 2325.58 (22.48% away).
    // Repay: debt may be at most floor(5160 / 1.5) = 3440 USDC → repay 560 USDC.
    // Collateral: needs 6000 USDC max borrow → value ≥ ceil(6000e6 / 0.86) = 6976744187 atomic USDC →
    // WETH ≥ ceil(6976744187 × 1e36 / 3e27) = 2325581395666666667 → add 325581395666666667 (0.32558 WETH).
    const p = wethUsdc({ debt: 4000n * 10n ** 6n })
    const a = analyzeLoan(p)
    expect(a.healthFactor).toBe(1.29)
    expect(a.status).toBe('solvent')
    expect(a.liquidationDistancePct).toBeCloseTo(22.4806, 3)
    expect(a.restore.repay).toEqual({ assets: '560000000', debtAfter: '3440000000', healthFactorAfter: 1.5 })
    expect(a.restore.supplyCollateral?.assets).toBe('325581395666666667')
    expect(a.restore.supplyCollateral?.collateralAfter).toBe('2325581395666666667')
    expect(a.advice).toBe(
      'At risk: WETH can fall about 22.4% before liquidation; repay 560 USDC or add 0.325582 WETH to reach health 1.5.',
    )
    const maxB = maxBorrow(p.collateral, p.oraclePrice, p.lltv)
    expect(atLeast(maxB, p.debt - 560_000_000n, 1_500_000n)).toBe(true)
    expect(atLeast(maxB, p.debt - 559_999_999n, 1_500_000n)).toBe(false)
    const add = 325_581_395_666_666_667n
    expect(atLeast(maxBorrow(p.collateral + add, p.oraclePrice, p.lltv), p.debt, 1_500_000n)).toBe(true)
    expect(atLeast(maxBorrow(p.collateral + add - 1n, p.oraclePrice, p.lltv), p.debt, 1_500_000n)).toBe(false)
  })

  test('behavior: exactly at health 1 is liquidatable, with 0 distance and 0 time', () => {
    // 1 WETH at 1000 USDC, lltv 80% → max borrow 800 USDC = the debt.
    const a = analyzeLoan(
      wethUsdc({
        collateral: WAD,
        oraclePrice: (1000n * 10n ** 6n * SCALE) / WAD,
        lltv: 800_000_000_000_000_000n,
        debt: 800n * 10n ** 6n,
        borrowRatePerSecond: perSecondWad(0.1),
      }),
    )
    expect(a.healthFactor).toBe(1)
    expect(a.status).toBe('liquidatable')
    expect(a.liquidationPrice).toBeCloseTo(1000, 9)
    expect(a.liquidationDistancePct).toBeCloseTo(0, 9)
    expect(a.timeToLiquidationSec).toBe(0)
    expect(a.stress.every((s) => s.liquidatable)).toBe(true)
  })

  test('behavior: below health 1: liquidatable, negative distance, and the restore amounts by hand', () => {
    // Debt 1000 USDC on 800 max borrow: HF 0.8; liquidation price 1000 / 0.8 = 1250, 25% above the price.
    // Repay to 1.5: debt ≤ floor(800 / 1.5) = 533.333333 → repay 466.666667 USDC.
    // Collateral: 1500 max borrow → 1875 USDC of value → 1.875 WETH → add 0.875 WETH.
    const a = analyzeLoan(
      wethUsdc({
        collateral: WAD,
        oraclePrice: (1000n * 10n ** 6n * SCALE) / WAD,
        lltv: 800_000_000_000_000_000n,
        debt: 1000n * 10n ** 6n,
      }),
    )
    expect(a.healthFactor).toBe(0.8)
    expect(a.status).toBe('liquidatable')
    expect(a.liquidationPrice).toBeCloseTo(1250, 9)
    expect(a.liquidationDistancePct).toBeCloseTo(-25, 9)
    expect(a.timeToLiquidationSec).toBeNull() // no rate given
    expect(a.restore.repay?.assets).toBe('466666667')
    expect(a.restore.supplyCollateral?.assets).toBe('875000000000000000')
    expect(a.advice).toBe('Liquidatable now: repay 466.667 USDC or add 0.875 WETH to reach health 1.5.')
  })

  test('behavior: no debt: health null (infinite), nothing to liquidate or restore', () => {
    const a = analyzeLoan(wethUsdc({ debt: 0n, borrowRatePerSecond: perSecondWad(0.05) }))
    expect(a).toMatchObject({
      healthFactor: null,
      status: 'solvent',
      liquidationPrice: null,
      liquidationDistancePct: null,
      timeToLiquidationSec: null,
      restore: { targetHealth: 1.5, repay: null, supplyCollateral: null },
      advice: 'No debt: nothing can be liquidated.',
    })
    expect(a.stress.every((s) => s.healthFactor === null && !s.liquidatable)).toBe(true)
  })

  test('behavior: a zero or absent rate gives no time to liquidation', () => {
    expect(analyzeLoan(wethUsdc({ borrowRatePerSecond: 0n })).timeToLiquidationSec).toBeNull()
    expect(analyzeLoan(wethUsdc({ borrowRatePerSecond: null })).timeToLiquidationSec).toBeNull()
  })

  test('behavior: debt with no collateral is liquidatable; only repaying the whole debt restores it', () => {
    const a = analyzeLoan(wethUsdc({ collateral: 0n }))
    expect(a.healthFactor).toBe(0)
    expect(a.status).toBe('liquidatable')
    expect(a.liquidationPrice).toBeNull()
    expect(a.restore.repay?.assets).toBe('2000000000')
    // 3000 USDC max borrow → value ≥ ceil(3000e6 / 0.86) = 3488372094 atomic USDC (the value is rounded
    // down before the lltv, so it must be whole) → WETH ≥ ceil(3488372094 × 1e36 / 3e27) = 1.162790698.
    expect(a.restore.supplyCollateral?.assets).toBe('1162790698000000000')
  })

  test('behavior: a zero oracle price leaves only the repay', () => {
    const a = analyzeLoan(wethUsdc({ oraclePrice: 0n }))
    expect(a.status).toBe('liquidatable')
    expect(a.liquidationDistancePct).toBeNull()
    expect(a.restore.repay?.assets).toBe('2000000000')
    expect(a.restore.supplyCollateral).toBeNull()
    expect(a.advice).toBe('Liquidatable now: repay 2000 USDC to reach health 1.5.')
  })

  test('behavior: a custom target is honoured to 6 decimals', () => {
    // HF 2.58 is below 3: debt ≤ floor(5160 / 3) = 1720 → repay 280 USDC.
    const a = analyzeLoan(wethUsdc({ targetHealth: 3 }))
    expect(a.restore.targetHealth).toBe(3)
    expect(a.restore.repay?.assets).toBe('280000000')
  })

  // Decimals 18/6, 8/6, 6/18, 18/18; tiny debt, huge collateral, tiny lltv; prices from the oracle's scale.
  const cbBtcUsdc = (60_000n * 10n ** 6n * SCALE) / 10n ** 8n
  const usdcWeth = (WAD * SCALE) / (3000n * 10n ** 6n) // 1/3000 WETH per USDC
  const cases: { name: string; p: LoanPosition }[] = [
    { name: 'WETH/USDC at risk', p: wethUsdc({ debt: 4_444_444_444n }) },
    {
      name: 'cbBTC(8)/USDC(6)',
      p: wethUsdc({
        collateral: 50_000_000n,
        collateralDecimals: 8,
        collateralSymbol: 'cbBTC',
        oraclePrice: cbBtcUsdc,
        debt: 21_000_123_457n,
      }),
    },
    {
      name: 'USDC(6)/WETH(18)',
      p: wethUsdc({
        collateral: 10_000_000_000n,
        collateralDecimals: 6,
        collateralSymbol: 'USDC',
        oraclePrice: usdcWeth,
        loanDecimals: 18,
        loanSymbol: 'WETH',
        debt: 2_700_000_000_000_000_001n,
        lltv: 915_000_000_000_000_000n,
      }),
    },
    { name: 'tiny debt, target 1e6', p: wethUsdc({ collateral: 1n, debt: 1n, targetHealth: 1_000_000 }) },
    { name: 'huge collateral and debt', p: wethUsdc({ collateral: 10n ** 30n, debt: 10n ** 21n * 2_999n }) },
    {
      name: 'WETH/WETH 18/18, lltv 94.5%',
      p: wethUsdc({
        loanDecimals: 18,
        loanSymbol: 'WETH',
        oraclePrice: SCALE,
        lltv: 945_000_000_000_000_000n,
        collateral: 7n * WAD + 3n,
        debt: 6n * WAD + WAD / 2n + 12345n, // 7 × 0.945 / 6.5 = 1.0177 < 1.05
        targetHealth: 1.05,
      }),
    },
  ]

  test.each(cases)('behavior: restore amounts are exact and tight ($name)', ({ p }) => {
    const a = analyzeLoan(p)
    const targetMicro = BigInt(Math.round((p.targetHealth ?? 1.5) * 1e6))
    const maxB = maxBorrow(p.collateral, p.oraclePrice, p.lltv)
    expect(atLeast(maxB, p.debt, targetMicro)).toBe(false) // every case starts below its target
    const repay = BigInt(a.restore.repay!.assets)
    expect(atLeast(maxB, p.debt - repay, targetMicro)).toBe(true)
    expect(atLeast(maxB, p.debt - repay + 1n, targetMicro)).toBe(false)
    const add = BigInt(a.restore.supplyCollateral!.assets)
    expect(atLeast(maxBorrow(p.collateral + add, p.oraclePrice, p.lltv), p.debt, targetMicro)).toBe(true)
    expect(atLeast(maxBorrow(p.collateral + add - 1n, p.oraclePrice, p.lltv), p.debt, targetMicro)).toBe(
      false,
    )
    // Null after a full repay (no debt left: infinite health).
    expect(a.restore.repay!.healthFactorAfter ?? Number.POSITIVE_INFINITY).toBeGreaterThanOrEqual(
      p.targetHealth ?? 1.5,
    )
    expect(a.restore.supplyCollateral!.healthFactorAfter).toBeGreaterThanOrEqual(p.targetHealth ?? 1.5)
    // Status agrees with the test's own max borrow; HF is maxB / debt as a WAD division.
    expect(a.status).toBe(maxB <= p.debt ? 'liquidatable' : 'solvent')
    expect(a.healthFactor).toBe(Number((maxB * WAD) / p.debt) / 1e18)
  })

  test.each(cases)('behavior: the stress table falls monotonically with the price ($name)', ({ p }) => {
    const a = analyzeLoan(p)
    const now = a.healthFactor!
    const hfs = a.stress.map((s) => s.healthFactor!)
    expect([now, ...hfs]).toEqual([now, ...hfs].slice().sort((x, y) => y - x))
    const prices = a.stress.map((s) => s.price)
    expect(prices[0]).toBeLessThan(a.price)
    expect(prices).toEqual(prices.slice().sort((x, y) => y - x))
    // Each row against the test's own arithmetic.
    a.stress.forEach((s) => {
      const stressed = (p.oraclePrice * BigInt(100 + s.priceChangePct)) / 100n
      const maxB = maxBorrow(p.collateral, stressed, p.lltv)
      expect(s.healthFactor).toBe(Number((maxB * WAD) / p.debt) / 1e18)
      expect(s.liquidatable).toBe(maxB <= p.debt)
    })
  })

  test('behavior: huge collateral against a tiny debt stays finite and exact', () => {
    const a = analyzeLoan(
      wethUsdc({ collateral: 10n ** 27n, debt: 1n, borrowRatePerSecond: perSecondWad(0.1) }),
    )
    // 1e9 WETH × 3000 × 0.86 = 2.58e12 USDC = 2.58e18 atomic on a debt of 1 atomic.
    expect(a.healthFactor).toBe(2.58e18)
    expect(a.liquidationDistancePct).toBeCloseTo(100, 9)
    expect(Number.isFinite(a.timeToLiquidationSec)).toBe(true)
    expect(a.restore.repay).toBeNull()
  })

  test('error: bad inputs are refused', () => {
    expect(() => analyzeLoan(wethUsdc({ targetHealth: 1 }))).toThrow(RangeError)
    expect(() => analyzeLoan(wethUsdc({ targetHealth: 1.0000001 }))).toThrow(RangeError)
    expect(() => analyzeLoan(wethUsdc({ targetHealth: Number.NaN }))).toThrow(RangeError)
    expect(() => analyzeLoan(wethUsdc({ debt: -1n }))).toThrow(RangeError)
    expect(() => analyzeLoan(wethUsdc({ lltv: WAD + 1n }))).toThrow(RangeError)
    expect(() => analyzeLoan(wethUsdc({ collateralDecimals: 1.5 }))).toThrow(RangeError)
    expect(() => analyzeLoan(wethUsdc({ borrowRatePerSecond: -1n }))).toThrow(RangeError)
  })
})
