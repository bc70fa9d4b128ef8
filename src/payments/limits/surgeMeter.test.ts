import { describe, expect, test } from 'vitest'
import { createSurgeMeter, surgedAmount } from './surgeMeter.js'

describe('surge meter', () => {
  test('no surge below half capacity, linear above, capped at 2x', () => {
    let t = 1_000_000
    const meter = createSurgeMeter(10, () => t)
    expect(meter.multiplier()).toBe(1)
    for (let i = 0; i < 50; i++) meter.record() // 5 rps over 10 s = half capacity
    expect(meter.rps()).toBe(5)
    expect(meter.multiplier()).toBe(1)
    for (let i = 0; i < 25; i++) meter.record() // 7.5 rps
    expect(meter.multiplier()).toBe(1.5)
    for (let i = 0; i < 500; i++) meter.record()
    expect(meter.multiplier()).toBe(2)
    t += 10_000 // the window slides past every hit
    expect(meter.rps()).toBe(0)
    expect(meter.multiplier()).toBe(1)
  })

  test('surged amounts stay integral in atomic units', () => {
    expect(surgedAmount(1000n, 1)).toBe(1000n)
    expect(surgedAmount(1000n, 1.3)).toBe(1300n)
    expect(surgedAmount(5000n, 2)).toBe(10000n)
  })
})
