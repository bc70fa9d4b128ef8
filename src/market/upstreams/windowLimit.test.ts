import { describe, expect, test } from 'vitest'
import { UpstreamError } from '../../errors.js'
import { createWindowLimit } from './windowLimit.js'

/**
 * A clock that moves only when a sleep ends, to the sleep's end (plus `late` ms: a timer firing late), as
 * real timers would: callers booking turns in one tick all see the same time.
 */
function fakeTime(late = 0) {
  let t = 1_000_000
  const sleeps: number[] = []
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms)
      const until = t + ms + late
      await Promise.resolve()
      t = Math.max(t, until)
    },
    sleeps,
    advance: (ms: number) => {
      t += ms
    },
  }
}

describe('createWindowLimit', () => {
  test('behavior: max go at once; the next waits for the first to leave the window, in arrival order', async () => {
    const time = fakeTime()
    const limit = createWindowLimit({
      upstream: 'u',
      max: 3,
      windowMs: 1000,
      now: time.now,
      sleep: time.sleep,
    })
    const order: number[] = []
    await Promise.all(Array.from({ length: 5 }, (_, i) => limit.take().then(() => order.push(i))))
    expect(order).toEqual([0, 1, 2, 3, 4])
    expect(time.sleeps).toEqual([1000, 1000])
  })

  test('error: a turn further off than maxWait is refused at once, with a Retry-After, and books nothing', async () => {
    const time = fakeTime()
    const limit = createWindowLimit({
      upstream: 'Pyth Hermes',
      max: 2,
      windowMs: 10_000,
      maxWaitMs: 5000,
      now: time.now,
      sleep: time.sleep,
    })
    await limit.take()
    await limit.take()
    const refused = await limit.take().catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(UpstreamError)
    expect((refused as UpstreamError).retryAfterSec).toBe(10)
    time.advance(10_000)
    await limit.take()
    expect(time.sleeps).toEqual([])
  })

  test('behavior: a pause (a 429) holds the turns already booked, not only new ones', async () => {
    const time = fakeTime()
    const limit = createWindowLimit({
      upstream: 'u',
      max: 1,
      windowMs: 1000,
      maxWaitMs: 10_000,
      now: time.now,
      sleep: time.sleep,
    })
    await limit.take()
    const booked = limit.take()
    limit.pause(3000)
    await booked
    // It slept to its turn (1 s), then to the pause's end (2 s more).
    expect(time.sleeps).toEqual([1000, 2000])
  })

  test('behavior: a request is counted when it leaves, so a late timer never lets two in one window', async () => {
    const time = fakeTime(300)
    const limit = createWindowLimit({
      upstream: 'u',
      max: 1,
      windowMs: 1000,
      now: time.now,
      sleep: time.sleep,
    })
    const leftAt: number[] = []
    for (let i = 0; i < 3; i++) {
      await limit.take()
      leftAt.push(time.now())
    }
    for (let i = 1; i < leftAt.length; i++)
      expect((leftAt[i] as number) - (leftAt[i - 1] as number)).toBeGreaterThanOrEqual(1000)
  })
})
