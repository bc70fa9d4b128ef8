import { describe, expect, test } from 'vitest'
import { createTokenBucket } from './tokenBucket.js'

/** A clock that only moves when the bucket sleeps, so every wait is exact and nothing real is timed. */
function fakeTime() {
  let t = 1_000_000
  const sleeps: number[] = []
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms)
      t += ms
    },
    sleeps,
    advance: (ms: number) => {
      t += ms
    },
  }
}

describe('createTokenBucket', () => {
  test('behavior: a burst goes at once, then one request per 1/rate seconds, in arrival order', async () => {
    const time = fakeTime()
    const bucket = createTokenBucket({ ratePerSec: 10, burst: 10, now: time.now, sleep: time.sleep })
    const order: number[] = []
    await Promise.all(Array.from({ length: 13 }, (_, i) => bucket.take().then(() => order.push(i))))
    expect(order).toEqual(Array.from({ length: 13 }, (_, i) => i))
    // Ten tokens at the start; the 11th, 12th and 13th each wait 100 ms for one more.
    expect(time.sleeps).toEqual([100, 100, 100])
  })

  test('behavior: idle time refills the bucket up to the burst, never beyond', async () => {
    const time = fakeTime()
    const bucket = createTokenBucket({ ratePerSec: 10, burst: 5, now: time.now, sleep: time.sleep })
    for (let i = 0; i < 5; i++) await bucket.take()
    time.advance(250) // 2.5 tokens back
    for (let i = 0; i < 2; i++) await bucket.take()
    expect(time.sleeps).toEqual([])
    await bucket.take() // 0.5 left: waits 50 ms
    expect(time.sleeps).toEqual([50])
    time.advance(60_000)
    for (let i = 0; i < 5; i++) await bucket.take()
    await bucket.take()
    expect(time.sleeps).toEqual([50, 100])
  })

  test('default: rate 0 never waits; a bad rate or burst throws RangeError', async () => {
    const time = fakeTime()
    const free = createTokenBucket({ ratePerSec: 0, burst: 1, now: time.now, sleep: time.sleep })
    await Promise.all(Array.from({ length: 100 }, () => free.take()))
    expect(time.sleeps).toEqual([])
    expect(() => createTokenBucket({ ratePerSec: -1, burst: 1 })).toThrow(RangeError)
    expect(() => createTokenBucket({ ratePerSec: 10, burst: 0 })).toThrow(RangeError)
  })
})
