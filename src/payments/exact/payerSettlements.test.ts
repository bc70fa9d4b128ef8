import { describe, expect, test } from 'vitest'
import { createMemoryState, createRedisState } from '../../store/sharedState.js'
import { PaymentError } from '../paymentError.js'
import { createPayerSettlements } from './payerSettlements.js'

const PAYER = '0x00000000000000000000000000000000000000Aa'
const options = { cooldownMs: 60_000, waitMs: 200, pollMs: 10, codeRevertBudget: 2 }

describe('payerSettlements', () => {
  test('behavior: a payer’s turns run one at a time, in order; other payers do not wait', async () => {
    const settlements = createPayerSettlements(createMemoryState(), options)
    const order: string[] = []
    const first = await settlements.turn(PAYER, false, 10_000)
    const second = settlements.turn(PAYER, false, 10_000).then((t) => {
      order.push('second')
      return t
    })
    const other = await settlements.turn('0x00000000000000000000000000000000000000bb', false, 10_000)
    order.push('other')
    await new Promise((r) => setTimeout(r, 30))
    expect(order).toEqual(['other'])
    order.push('first ends')
    await first.end()
    await (await second).end()
    await other.end()
    expect(order).toEqual(['other', 'first ends', 'second'])
  })

  test('error: a turn not free within the wait is payment_payer_busy; a kept slot stays taken until decided', async () => {
    const settlements = createPayerSettlements(createMemoryState(), options)
    const kept = await settlements.turn(PAYER, false, 10_000)
    kept.keep()
    await expect(settlements.turn(PAYER, false, 10_000)).rejects.toMatchObject({
      paymentCode: 'payment_payer_busy',
    })
    // The reconciler decides the kept settlement while its authorization is still valid: the slot frees.
    await settlements.decided(PAYER, 1_000, 900)
    const next = await settlements.turn(PAYER, false, 10_000)
    await next.end()
  })

  test('error: after its authorization expired (plus the grace) a decided row never frees a slot that may be another’s', async () => {
    const state = createMemoryState()
    const settlements = createPayerSettlements(state, options)
    const current = await settlements.turn(PAYER, false, 10_000)
    current.keep()
    await settlements.decided(PAYER, 1_000, 1_000 + 61)
    await expect(settlements.turn(PAYER, false, 10_000)).rejects.toBeInstanceOf(PaymentError)
  })

  test('behavior: the cool-down lasts its window, and 0 turns it off', async () => {
    let now = 1_000_000
    const settlements = createPayerSettlements(
      createMemoryState(() => now),
      options,
    )
    expect(await settlements.coolingDown(PAYER, false)).toBe(false)
    await settlements.coolDown(PAYER, false)
    expect(await settlements.coolingDown(PAYER.toLowerCase(), false)).toBe(true)
    now += 60_001
    expect(await settlements.coolingDown(PAYER, false)).toBe(false)
    const off = createPayerSettlements(createMemoryState(), { ...options, cooldownMs: 0 })
    await off.coolDown(PAYER, true)
    expect(await off.coolingDown(PAYER, true)).toBe(false)
  })
})

describe('payerSettlements: payers with code', () => {
  const A = '0x00000000000000000000000000000000000000a1'
  const B = '0x00000000000000000000000000000000000000b2'
  test('behavior: payers with code share one lane: a second wallet waits for the first one’s settlement', async () => {
    const settlements = createPayerSettlements(createMemoryState(), options)
    const first = await settlements.turn(A, true, 10_000)
    await expect(settlements.turn(B, true, 10_000)).rejects.toMatchObject({
      paymentCode: 'payment_payer_busy',
    })
    // A payer without code is not in that lane.
    await (await settlements.turn(B, false, 10_000)).end()
    await first.end()
    await (await settlements.turn(B, true, 10_000)).end()
  })

  test('error: once the revert budget of payers with code is spent, every payer with code cools down; payers without code do not', async () => {
    const settlements = createPayerSettlements(createMemoryState(), options)
    await settlements.coolDown(A, true)
    expect(await settlements.coolingDown(B, true)).toBe(false)
    await settlements.coolDown('0x00000000000000000000000000000000000000c3', true)
    expect(await settlements.coolingDown(B, true)).toBe(true)
    expect(await settlements.coolingDown(B, false)).toBe(false)
  })
})

describe('payerSettlements across instances (the machine’s Redis)', () => {
  test('behavior: two instances sharing Redis never run one payer’s settlements at once, and share its cool-down', async () => {
    const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
    const [stateA, stateB] = [createRedisState(url), createRedisState(url)]
    try {
      const a = createPayerSettlements(stateA, options)
      const b = createPayerSettlements(stateB, { ...options, waitMs: 2_000 })
      const payer = `0x${Math.random().toString(16).slice(2).padEnd(40, '0').slice(0, 40)}`
      const held = await a.turn(payer, false, 10_000)
      let bGot = false
      const waiting = b.turn(payer, false, 10_000).then((t) => {
        bGot = true
        return t
      })
      await new Promise((r) => setTimeout(r, 100))
      expect(bGot).toBe(false)
      await held.end()
      await (await waiting).end()
      expect(bGot).toBe(true)
      await a.coolDown(payer, false)
      expect(await b.coolingDown(payer, false)).toBe(true)
    } finally {
      await Promise.all([stateA.close(), stateB.close()])
    }
  })
})
