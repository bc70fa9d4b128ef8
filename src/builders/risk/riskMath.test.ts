import { describe, expect, test } from 'vitest'
import {
  closeEstimate,
  fillPrice,
  leverageCollateralDelta,
  positionFee,
  positionSize,
  scaled,
  tpSlProblem,
  triggerProblem,
} from './riskMath.js'

// Numbers worked by hand from protocols.md §1 (fees P/1e12 of the size, half the spread per fill).
describe('riskMath', () => {
  test('behavior: venue scaling of human numbers', () => {
    expect(scaled(95000, 10)).toBe(950_000_000_000_000n)
    expect(scaled(10, 3)).toBe(10_000n)
    expect(scaled(1.1, 3)).toBe(1_100n)
    expect(scaled(100.25, 6)).toBe(100_250_000n)
    expect(scaled(0.35, 3)).toBe(350n)
  })

  test('behavior: opening fee is 0.06 % of collateral × leverage', () => {
    const size = positionSize(100_000_000n, 10_000n) // 100 USDC at 10x
    expect(size).toBe(1_000_000_000n)
    expect(positionFee(size, 600_000_000n)).toBe(600_000n) // 0.6 USDC
  })

  test('behavior: fills pay half the spread against the trader', () => {
    const p = 1_000_000_000_000_000n // 100000
    const spread = 400_000_000n // 0.04 %: half is 0.02 % = 20
    expect(fillPrice(p, spread, true, true)).toBe(p + 200_000_000_000n)
    expect(fillPrice(p, spread, true, false)).toBe(p - 200_000_000_000n)
    expect(fillPrice(p, spread, false, true)).toBe(p - 200_000_000_000n)
    expect(fillPrice(p, spread, false, false)).toBe(p + 200_000_000_000n)
  })

  test('behavior: a close pays collateral + pnl − closing fee, profit capped at 900 %', () => {
    const t = { collateral: 99_400_000n, leverage: 10_000n, openPrice: 1_000n, long: true }
    // +1 %: size 994 USDC earns 9.94; the fee is 0.5964.
    expect(closeEstimate(t, 1_010n, 600_000_000n)).toEqual({
      pnl: 9_940_000n,
      closingFee: 596_400n,
      value: 99_400_000n + 9_940_000n - 596_400n,
    })
    // A short loses when the price rises.
    expect(closeEstimate({ ...t, long: false }, 1_010n, 0n).pnl).toBe(-9_940_000n)
    // +200 % at 10x would be +2000 %: capped at 9 × collateral.
    expect(closeEstimate(t, 3_000n, 0n).pnl).toBe(894_600_000n)
    // A wipe-out pays nothing, never a negative amount.
    expect(closeEstimate(t, 1n, 0n).value).toBe(0n)
  })

  test('behavior: updateLeverage keeps the size, so collateral moves inversely', () => {
    expect(leverageCollateralDelta(100_000_000n, 10_000n, 5_000n)).toBe(100_000_000n) // 10x → 5x: top up 100
    expect(leverageCollateralDelta(100_000_000n, 10_000n, 20_000n)).toBe(-50_000_000n) // 10x → 20x: 50 back
  })

  test('error: TP/SL on the wrong side of the entry name their field', () => {
    expect(tpSlProblem(true, 100, 110, 90)).toBeNull()
    expect(tpSlProblem(true, 100, 95)?.field).toBe('tp')
    expect(tpSlProblem(true, 100, undefined, 100)?.field).toBe('sl')
    expect(tpSlProblem(false, 100, 90, 110)).toBeNull()
    expect(tpSlProblem(false, 100, 105)?.field).toBe('tp')
    expect(tpSlProblem(false, 100, undefined, 95)?.field).toBe('sl')
    expect(tpSlProblem(true, 100, 0, 0)).toBeNull() // 0 = none
  })

  test('error: a trigger on the wrong side of the mark for its type', () => {
    expect(triggerProblem(1, true, 90, 100)).toBeNull() // LIMIT long below
    expect(triggerProblem(1, true, 110, 100)?.field).toBe('triggerPrice')
    expect(triggerProblem(2, true, 110, 100)).toBeNull() // STOP long above
    expect(triggerProblem(2, true, 90, 100)?.field).toBe('triggerPrice')
    expect(triggerProblem(1, false, 110, 100)).toBeNull() // LIMIT short above
    expect(triggerProblem(2, false, 90, 100)).toBeNull() // STOP short below
    expect(triggerProblem(1, true, 100, 100)?.field).toBe('triggerPrice') // at the mark: neither
  })
})
