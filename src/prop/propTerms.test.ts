import { describe, expect, test } from 'vitest'
import { actionCostUsd, allotment, matchFactor, membership } from './propTerms.js'

describe('prop desk terms', () => {
  test('membership needs $500 of held, burned and sent UTIL together, and says what is missing', () => {
    expect(membership({ heldUsd: 200, burnedUsd: 200, sentUsd: 100, executedActions: 0 })).toEqual({
      combinedUsd: 500,
      eligible: true,
      lacks: [],
    })
    const short = membership({ heldUsd: 100, burnedUsd: 50, sentUsd: 0, executedActions: 9 })
    expect(short.eligible).toBe(false)
    expect(short.lacks[0]).toContain('short by $350.00')
  })

  test('the match factor runs from 1× to 3× with lifetime burn and the desk record', () => {
    expect(matchFactor({ burnedUsd: 0, executedActions: 0 })).toBe(1)
    expect(matchFactor({ burnedUsd: 2_500, executedActions: 10 })).toBe(2)
    expect(matchFactor({ burnedUsd: 1e9, executedActions: 1e9 })).toBe(3)
  })

  test('the allotment scales with the factor, leverage capped at 25', () => {
    expect(allotment(1)).toMatchObject({ maxCollateralUsdc: 100, maxLeverage: 10 })
    expect(allotment(1.55)).toMatchObject({ maxCollateralUsdc: 155, maxLeverage: 15 })
    expect(allotment(3)).toMatchObject({ maxCollateralUsdc: 300, maxLeverage: 25 })
  })

  test('an open costs 0.1% of its notional, at least $1; a close $1', () => {
    expect(actionCostUsd({ actionId: 'trade.open', notionalUsd: 500 })).toBe(1)
    expect(actionCostUsd({ actionId: 'trade.open', notionalUsd: 2_500 })).toBe(2.5)
    expect(actionCostUsd({ actionId: 'trade.close' })).toBe(1)
  })
})
