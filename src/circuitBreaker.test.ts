import { describe, expect, test } from 'vitest'
import { circuitBreakers, createCircuitBreaker } from './circuitBreaker.js'
import { UpstreamError } from './errors.js'

const down = () => Promise.reject(new Error('ECONNRESET'))
const up = () => Promise.resolve('answer')

/** A breaker on a clock the test moves, and how many calls actually reached the upstream. */
function subject(failures = 3, coolDownMs = 10_000) {
  let t = 1_000_000
  let reached = 0
  const breaker = createCircuitBreaker('Exchange', { failures, coolDownMs, now: () => t })
  const via = (call: () => Promise<string>) =>
    breaker.run(() => {
      reached += 1
      return call()
    })
  return {
    breaker,
    via,
    advance: (ms: number) => {
      t += ms
    },
    reached: () => reached,
  }
}

/** What a call through the breaker ended with: its value, or the error it threw. */
async function settle(p: Promise<string>): Promise<string | Error> {
  return p.catch((err: Error) => err)
}

describe('circuit breaker', () => {
  test('opens after N consecutive outages and then refuses without calling, naming the cool-down left', async () => {
    const s = subject(3, 10_000)
    for (let i = 0; i < 3; i++) expect(await settle(s.via(down))).toHaveProperty('message', 'ECONNRESET')
    expect(s.breaker.state()).toBe('open')
    s.advance(2_500)
    const refused = await settle(s.via(up))
    expect(refused).toBeInstanceOf(UpstreamError)
    expect(refused).toMatchObject({ status: 502, code: 'upstream_unavailable', retryAfterSec: 8 })
    expect((refused as UpstreamError).details).toEqual({ upstream: 'Exchange' })
    // Three calls reached the dead upstream; the fourth never left.
    expect(s.reached()).toBe(3)
  })

  test('a success between outages resets the count: only consecutive outages open it', async () => {
    const s = subject(3)
    await settle(s.via(down))
    await settle(s.via(down))
    expect(await settle(s.via(up))).toBe('answer')
    await settle(s.via(down))
    await settle(s.via(down))
    expect(s.breaker.state()).toBe('closed')
    expect(await settle(s.via(up))).toBe('answer')
    expect(s.reached()).toBe(6)
  })

  test('after the cool-down one probe goes through; its success closes the circuit', async () => {
    const s = subject(2, 5_000)
    await settle(s.via(down))
    await settle(s.via(down))
    s.advance(5_000)
    expect(s.breaker.state()).toBe('half-open')
    expect(await settle(s.via(up))).toBe('answer')
    expect(s.breaker.state()).toBe('closed')
    expect(await settle(s.via(up))).toBe('answer')
    expect(s.reached()).toBe(4)
  })

  test('a failed probe opens the circuit for a whole new cool-down', async () => {
    const s = subject(2, 5_000)
    await settle(s.via(down))
    await settle(s.via(down))
    s.advance(6_000)
    expect(await settle(s.via(down))).toHaveProperty('message', 'ECONNRESET')
    expect(s.breaker.state()).toBe('open')
    expect(await settle(s.via(up))).toMatchObject({ retryAfterSec: 5 })
    s.advance(4_999)
    expect(s.breaker.state()).toBe('open')
    s.advance(1)
    expect(await settle(s.via(up))).toBe('answer')
    expect(s.reached()).toBe(4)
  })

  test('while the probe is out, a few calls wait for it and go out once it succeeded; the rest are refused at once (Retry-After 1 s), never sent', async () => {
    let t = 1_000_000
    let reached = 0
    const breaker = createCircuitBreaker('Exchange', {
      failures: 1,
      coolDownMs: 1_000,
      now: () => t,
      probeWaiters: 3,
    })
    const via = (call: () => Promise<string>) =>
      breaker.run(() => {
        reached += 1
        return call()
      })
    await settle(via(down))
    t += 1_000
    let answer: (v: string) => void = () => {}
    const probe = via(() => new Promise<string>((r) => (answer = r)))
    // The attack review's 500 callers behind a probe: 3 wait, the other 497 are refused now.
    const outcomes: (string | Error | undefined)[] = Array.from({ length: 500 }, () => undefined)
    const calls = outcomes.map((_, i) =>
      settle(via(up)).then((o) => {
        outcomes[i] = o
      }),
    )
    await new Promise((r) => setImmediate(r))
    const refused = outcomes.filter((o) => o instanceof UpstreamError)
    expect(refused).toHaveLength(497)
    for (const r of refused)
      expect(r).toMatchObject({ status: 502, code: 'upstream_unavailable', retryAfterSec: 1 })
    expect(outcomes.filter((o) => o === undefined)).toHaveLength(3)
    // Only the probe has gone out.
    expect(reached).toBe(2)
    answer('healed')
    expect(await probe).toBe('healed')
    await Promise.all(calls)
    expect(outcomes.filter((o) => o === 'answer')).toHaveLength(3)
    expect(reached).toBe(5)
    expect(breaker.state()).toBe('closed')
  })

  test('with no room for waiters, every call beside the probe is refused at once and the probe alone goes out', async () => {
    let t = 0
    let reached = 0
    const breaker = createCircuitBreaker('Exchange', {
      failures: 1,
      coolDownMs: 1_000,
      now: () => t,
      probeWaiters: 0,
    })
    await breaker.run(down).catch(() => undefined)
    t += 1_000
    let answer: (v: string) => void = () => {}
    const probe = breaker.run(() => new Promise<string>((r) => (answer = r)))
    const beside = await settle(
      breaker.run(() => {
        reached += 1
        return up()
      }),
    )
    expect(beside).toMatchObject({ status: 502, retryAfterSec: 1 })
    expect(reached).toBe(0)
    answer('healed')
    expect(await probe).toBe('healed')
    expect(breaker.state()).toBe('closed')
  })

  test('calls arriving while a probe fails are refused, never go out, and the circuit opens again', async () => {
    const s = subject(1, 1_000)
    await settle(s.via(down))
    s.advance(1_000)
    let fail: (e: Error) => void = () => {}
    const probe = settle(s.via(() => new Promise<string>((_, reject) => (fail = reject))))
    const meanwhile = settle(s.via(up))
    fail(new Error('ETIMEDOUT'))
    expect(await probe).toHaveProperty('message', 'ETIMEDOUT')
    expect(await meanwhile).toMatchObject({ status: 502, retryAfterSec: 1 })
    expect(s.reached()).toBe(2)
    expect(s.breaker.state()).toBe('open')
    expect(await settle(s.via(up))).toMatchObject({ status: 502, retryAfterSec: 1 })
    expect(s.reached()).toBe(2)
  })

  test('a rejection that is the upstream answering (not an outage) does not count', async () => {
    let t = 0
    const breaker = createCircuitBreaker('Exchange', { failures: 1, coolDownMs: 1_000, now: () => t })
    const notFound = new Error('404')
    await breaker
      .run(
        () => Promise.reject(notFound),
        (err) => err !== notFound,
      )
      .catch(() => {})
    expect(breaker.state()).toBe('closed')
    t += 1
    await breaker.run(down).catch(() => {})
    expect(breaker.state()).toBe('open')
  })

  test('breakers are kept per upstream name: one dead upstream does not pause another', async () => {
    const of = circuitBreakers({ failures: 1, coolDownMs: 60_000, now: () => 0 })
    await of('Pyth')
      .run(down)
      .catch(() => {})
    expect(of('Pyth').state()).toBe('open')
    expect(of('Exchange').state()).toBe('closed')
    expect(await of('Exchange').run(up)).toBe('answer')
  })
})

describe('createCircuitBreaker with stillAnswers', () => {
  test('failures while the upstream still answers a cheap request keep it closed; once that fails too, it opens', async () => {
    let alive = true
    let calls = 0
    const breaker = createCircuitBreaker('RPC', {
      failures: 2,
      coolDownMs: 10_000,
      now: () => 0,
      stillAnswers: async () => alive,
    })
    const call = () => {
      calls += 1
      return down()
    }
    for (let i = 0; i < 6; i++) await breaker.run(call).catch(() => undefined)
    expect(breaker.state()).toBe('closed')
    expect(calls).toBe(6)
    alive = false
    for (let i = 0; i < 2; i++) await breaker.run(call).catch(() => undefined)
    expect(breaker.state()).toBe('open')
    await expect(breaker.run(call)).rejects.toBeInstanceOf(UpstreamError)
    expect(calls).toBe(8)
  })

  test('a failed probe reopens the circuit only if the upstream does not answer the cheap request either', async () => {
    let t = 0
    let alive = false
    let asked = 0
    const breaker = createCircuitBreaker('RPC', {
      failures: 1,
      coolDownMs: 1_000,
      now: () => t,
      stillAnswers: async () => {
        asked += 1
        return alive
      },
    })
    await breaker.run(down).catch(() => undefined)
    expect(breaker.state()).toBe('open')
    // Still dead at the probe: it opens again for a whole cool-down.
    t += 1_000
    await breaker.run(down).catch(() => undefined)
    expect(breaker.state()).toBe('open')
    expect(asked).toBe(2)
    // Healed, but the probe is a caller's failing read (too heavy for it): the RPC answers, so the circuit
    // closes; a crafted read winning the probe cannot keep the chain paused for everyone.
    alive = true
    t += 1_000
    await breaker.run(down).catch(() => undefined)
    expect(asked).toBe(3)
    expect(breaker.state()).toBe('closed')
    expect(await breaker.run(up)).toBe('answer')
  })
})
