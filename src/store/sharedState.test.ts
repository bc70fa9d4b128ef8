import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, test } from 'vitest'
import { createMemoryState, createRedisState, decideReservation, type SharedState } from './sharedState.js'

// The real Redis of this machine (and of CI); see README "Tests".
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

let clockMs = 1_000_000
const kinds: [string, () => SharedState, () => number][] = [
  ['memory', () => createMemoryState(() => clockMs), () => clockMs],
  ['redis', () => createRedisState(REDIS_URL), Date.now],
]
const opened: SharedState[] = []
afterAll(async () => {
  for (const s of opened) await s.close()
})

describe.each(kinds)('shared state (%s)', (_kind, make, now) => {
  test('a claim is exclusive until released', async () => {
    const state = make()
    opened.push(state)
    const key = `test:claim:${randomUUID()}`
    const results = await Promise.all(Array.from({ length: 20 }, () => state.claim(key, 10_000)))
    expect(results.filter(Boolean)).toHaveLength(1)
    await state.release(key)
    expect(await state.claim(key, 10_000)).toBe(true)
    await state.release(key)
  })

  test('putIfAbsent: one writer wins, the others read its value; put replaces; release and expiry drop it', async () => {
    const state = make()
    opened.push(state)
    const key = `test:value:${randomUUID()}`
    expect(await state.get(key)).toBeUndefined()
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => state.putIfAbsent(key, `v${i}`, 10_000)),
    )
    const winners = results.filter((r) => r === undefined)
    expect(winners).toHaveLength(1)
    const written = `v${results.indexOf(undefined)}`
    expect(results.filter((r) => r !== undefined).every((r) => r === written)).toBe(true)
    expect(await state.get(key)).toBe(written)
    await state.put(key, 'replaced', 10_000)
    expect(await state.putIfAbsent(key, 'other', 10_000)).toBe('replaced')
    await state.release(key)
    expect(await state.get(key)).toBeUndefined()
    expect(await state.putIfAbsent(key, 'short', 1)).toBeUndefined()
    clockMs += 5
    await new Promise((r) => setTimeout(r, 5))
    expect(await state.get(key)).toBeUndefined()
  })

  test('hits count within one window and report the time to reset', async () => {
    const state = make()
    opened.push(state)
    const key = `test:hit:${randomUUID()}`
    const counts = await Promise.all(Array.from({ length: 5 }, () => state.hit(key, 60_000)))
    expect(counts.map((c) => c.count).sort()).toEqual([1, 2, 3, 4, 5])
    for (const c of counts) {
      expect(c.resetMs).toBeGreaterThan(0)
      expect(c.resetMs).toBeLessThanOrEqual(60_000)
    }
  })

  test('funds book: concurrent reservations never exceed the balance; release and settlement free them', async () => {
    const state = make()
    opened.push(state)
    const owner = `0x${randomUUID().replaceAll('-', '')}`
    const { funds } = state
    expect((await funds.reserve(owner, 'n0', 1000n, 60_000)).verdict).toBe('unknown_balance')
    const readAt = now()
    await funds.recordBalance(owner, 3000n, readAt, 60_000)
    const verdicts = await Promise.all(
      Array.from(
        { length: 10 },
        async (_, i) => (await funds.reserve(owner, `n${i}`, 1000n, 60_000)).verdict,
      ),
    )
    expect(verdicts.filter((v) => v === 'reserved')).toHaveLength(3)
    expect(verdicts.filter((v) => v === 'insufficient')).toHaveLength(7)
    // A released reservation frees its amount at once.
    const first = verdicts.indexOf('reserved')
    await funds.release(owner, `n${first}`)
    const again = await funds.reserve(owner, 'again', 1000n, 60_000)
    expect(again.verdict).toBe('reserved')
    expect(again.balanceReadAtMs).toBe(readAt)
    expect((await funds.reserve(owner, 'more', 1n, 60_000)).verdict).toBe('insufficient')
    // A settled one keeps counting against the balance read before it settled.
    await funds.settle(owner, 'again', 60_000)
    expect((await funds.reserve(owner, 'more', 1n, 60_000)).verdict).toBe('insufficient')
  })
})

describe('decideReservation', () => {
  const balance = { amount: 3000, readAtMs: 10_000 }
  test('in-flight entries count; expired ones do not', () => {
    const entries = [
      { amount: 1000, expiresAt: 20_000, settledAt: 0 },
      { amount: 1000, expiresAt: 9_000, settledAt: 0 },
    ]
    expect(decideReservation(balance, entries, 2000, 10_000)).toBe('reserved')
    expect(decideReservation(balance, entries, 2001, 10_000)).toBe('insufficient')
    expect(decideReservation(undefined, entries, 1, 10_000)).toBe('unknown_balance')
  })

  test('a settled entry counts against reads that may not show it yet, and not against later ones', () => {
    const settledJustBefore = [{ amount: 1000, expiresAt: 20_000, settledAt: 9_000 }]
    expect(decideReservation(balance, settledJustBefore, 2001, 10_000)).toBe('insufficient')
    const settledLongBefore = [{ amount: 1000, expiresAt: 20_000, settledAt: 10_000 - 2_001 }]
    expect(decideReservation(balance, settledLongBefore, 3000, 10_000)).toBe('reserved')
  })
})

test('memory state: a window and a claim expire with the clock', async () => {
  const state = createMemoryState(() => clockMs)
  expect(await state.claim('k', 1000)).toBe(true)
  expect(await state.claim('k', 1000)).toBe(false)
  await state.hit('h', 1000)
  clockMs += 1001
  expect(await state.claim('k', 1000)).toBe(true)
  expect((await state.hit('h', 1000)).count).toBe(1)
})
