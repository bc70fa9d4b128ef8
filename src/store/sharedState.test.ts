import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, test } from 'vitest'
import { createMemoryState, createRedisState, type SharedState } from './sharedState.js'

// The real Redis of this machine (and of CI); see README "Tests".
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

let clockMs = 1_000_000
const kinds: [string, () => SharedState][] = [
  ['memory', () => createMemoryState(() => clockMs)],
  ['redis', () => createRedisState(REDIS_URL)],
]
const opened: SharedState[] = []
afterAll(async () => {
  for (const s of opened) await s.close()
})

describe.each(kinds)('shared state (%s)', (_kind, make) => {
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
