import { describe, expect, expectTypeOf, test } from 'vitest'
import { type RiskOpenBody, riskOpenBody } from './riskOpen.js'

const OWNER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const base = { pairIndex: 0, long: true, leverage: 10, collateralUsdc: 100, markPrice: 95_000, owner: OWNER }
const issues = (body: unknown) =>
  riskOpenBody.safeParse(body).error?.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))

describe('riskOpenBody', () => {
  test('behavior: a union on tradeType, where triggerPrice is a number exactly when the order rests', () => {
    const limit = riskOpenBody.parse({ ...base, tradeType: 1, triggerPrice: 94_000 })
    expect(limit).toMatchObject({ tradeType: 1, triggerPrice: 94_000, slippagePct: 1 })
    expect(riskOpenBody.parse(base)).toMatchObject({ tradeType: 0 })
    const trigger = (b: RiskOpenBody) => (b.tradeType === 0 ? null : b.triggerPrice)
    expectTypeOf(trigger).returns.toEqualTypeOf<number | null>()
    expect(trigger(limit)).toBe(94_000)
  })

  test('error: a resting order without its trigger, or a MARKET order with one, is one issue naming triggerPrice', () => {
    expect(issues({ ...base, tradeType: 2 })).toEqual([
      { path: 'triggerPrice', message: 'is required for LIMIT (1) and STOP (2) orders.' },
    ])
    expect(issues({ ...base, tradeType: 0, triggerPrice: 94_000 })).toEqual([
      {
        path: 'triggerPrice',
        message: 'is only for LIMIT (1) and STOP (2) orders; a MARKET order fills near markPrice.',
      },
    ])
  })
})
