import { describe, expect, test } from 'vitest'
import { type ClosedTrade, computeStats } from './computeStats.js'

const trade = (pnlUsd: number, extra: Partial<ClosedTrade> = {}): ClosedTrade => ({
  pnlUsd,
  collateralUsd: 100,
  leverage: 10,
  openPrice: 1000,
  sl: null,
  ...extra,
})

describe('computeStats', () => {
  test('default: no trades gives zero counts and sums and null ratios, averages and extremes', () => {
    expect(computeStats([])).toEqual({
      trades: 0,
      wins: 0,
      losses: 0,
      winRate: null,
      netUsd: 0,
      grossProfit: 0,
      grossLoss: 0,
      profitFactor: null,
      expectancyR: null,
      avgWin: null,
      avgLoss: null,
      bestTrade: null,
      worstTrade: null,
    })
  })

  test('behavior: all wins has profitFactor null (not Infinity) and avgLoss null', () => {
    const s = computeStats([trade(10), trade(30)])
    expect(s).toMatchObject({ trades: 2, wins: 2, losses: 0, winRate: 1, netUsd: 40, grossProfit: 40 })
    expect(s.grossLoss).toBe(0)
    expect(s.profitFactor).toBeNull()
    expect(s.avgWin).toBe(20)
    expect(s.avgLoss).toBeNull()
    // R = collateral 100 without a stop: (0.1 + 0.3) / 2
    expect(s.expectancyR).toBeCloseTo(0.2, 12)
    expect(s.bestTrade).toBe(30)
    expect(s.worstTrade).toBe(10)
  })

  test('behavior: all losses has profitFactor 0, winRate 0 and avgWin null', () => {
    const s = computeStats([trade(-20), trade(-50)])
    expect(s).toMatchObject({ trades: 2, wins: 0, losses: 2, winRate: 0, netUsd: -70, grossProfit: 0 })
    expect(s.grossLoss).toBe(70)
    expect(s.profitFactor).toBe(0)
    expect(s.avgWin).toBeNull()
    expect(s.avgLoss).toBe(35)
    expect(s.expectancyR).toBeCloseTo(-0.35, 12)
    expect(s.bestTrade).toBe(-20)
    expect(s.worstTrade).toBe(-50)
  })

  test('behavior: a mixed history matches hand-computed figures, R from the stop where one was set', () => {
    // A: +60, stop 980 on a 1000 entry, 100 × 10 → R = 1000 × 20 / 1000 = 20 → 3R
    // B: -20, same stop → -1R
    // C: +15, no stop → R = collateral 50 → 0.3R
    // D: -40, no stop, no open price → R = collateral 100 → -0.4R
    const s = computeStats([
      trade(60, { sl: 980 }),
      trade(-20, { sl: 980 }),
      trade(15, { collateralUsd: 50 }),
      trade(-40, { openPrice: null, sl: 980 }),
    ])
    expect(s.trades).toBe(4)
    expect(s.wins).toBe(2)
    expect(s.losses).toBe(2)
    expect(s.winRate).toBe(0.5)
    expect(s.netUsd).toBe(15)
    expect(s.grossProfit).toBe(75)
    expect(s.grossLoss).toBe(60)
    expect(s.profitFactor).toBe(1.25)
    expect(s.avgWin).toBe(37.5)
    expect(s.avgLoss).toBe(30)
    expect(s.expectancyR).toBeCloseTo((3 - 1 + 0.3 - 0.4) / 4, 12)
    expect(s.bestTrade).toBe(60)
    expect(s.worstTrade).toBe(-40)
  })

  test('behavior: a breakeven trade counts as a trade but neither a win nor a loss', () => {
    const s = computeStats([trade(0), trade(10), trade(-5)])
    expect(s).toMatchObject({ trades: 3, wins: 1, losses: 1, netUsd: 5, grossProfit: 10, grossLoss: 5 })
    expect(s.winRate).toBeCloseTo(1 / 3, 12)
    expect(s.profitFactor).toBe(2)
    expect(s.expectancyR).toBeCloseTo((0 + 0.1 - 0.05) / 3, 12)
  })

  test('behavior: only a breakeven trade has no losses, so profitFactor is null', () => {
    const s = computeStats([trade(0)])
    expect(s).toMatchObject({ trades: 1, wins: 0, losses: 0, winRate: 0, profitFactor: null })
    expect(s.bestTrade).toBe(0)
    expect(s.worstTrade).toBe(0)
    expect(s.expectancyR).toBe(0)
  })
})
