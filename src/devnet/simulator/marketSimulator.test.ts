import { describe, expect, test } from 'vitest'
import { type Candle, createMarketSimulator } from './marketSimulator.js'
import { UnknownSymbolError } from './simulatorErrors.js'

const NOW = Date.UTC(2026, 10, 15, 12, 34, 56, 789)
const NOW_SEC = NOW / 1000
const DAY = 86_400
const clock = { now: () => NOW }
const make = (seed = 7) => createMarketSimulator({ seed, clock })

/** Relative tolerance: aggregates are exp() of the same logs, so they agree to float rounding. */
const close = (a: number, b: number) => expect(Math.abs(a / b - 1)).toBeLessThan(1e-12)

function expectAggregates(parent: Candle, kids: readonly Candle[]) {
  expect(kids.length).toBeGreaterThan(1)
  close(kids[0]!.open, parent.open)
  close(kids[kids.length - 1]!.close, parent.close)
  close(Math.max(...kids.map((k) => k.high)), parent.high)
  close(Math.min(...kids.map((k) => k.low)), parent.low)
  close(
    kids.reduce((s, k) => s + k.volume, 0),
    parent.volume,
  )
  for (const k of kids) {
    expect(k.high).toBeLessThanOrEqual(parent.high * (1 + 1e-12))
    expect(k.low).toBeGreaterThanOrEqual(parent.low * (1 - 1e-12))
  }
}

function expectWellFormed(rows: readonly Candle[]) {
  for (const [i, k] of rows.entries()) {
    expect(k.high).toBeGreaterThanOrEqual(Math.max(k.open, k.close) * (1 - 1e-12))
    expect(k.low).toBeLessThanOrEqual(Math.min(k.open, k.close) * (1 + 1e-12))
    expect(k.low).toBeGreaterThan(0)
    expect(k.volume).toBeGreaterThan(0)
    if (i > 0) close(k.open, rows[i - 1]!.close)
  }
}

describe('determinism', () => {
  test('same seed gives the same prices and candles, regardless of query order', () => {
    const a = make()
    const b = make()
    // b refines minute-level nodes first; a asks for daily candles first.
    const spotB = b.spot('ETH', NOW - 3_723_000)
    const daysA = a.candles('ETH', NOW_SEC - 30 * DAY, NOW_SEC, DAY)
    const daysB = b.candles('ETH', NOW_SEC - 30 * DAY, NOW_SEC, DAY)
    expect(daysB).toEqual(daysA)
    expect(a.spot('ETH', NOW - 3_723_000)).toBe(spotB)
    for (const sym of ['BTC', 'EUR/USD', 'XAU', 'SPY', 'NVDA']) expect(a.spot(sym)).toBe(b.spot(sym))
  })

  test('a different seed gives a different path', () => {
    expect(make(1).spot('BTC')).not.toBe(make(2).spot('BTC'))
  })

  test('price at t does not depend on the clock (only on seed, symbol, t)', () => {
    const later = createMarketSimulator({ seed: 7, clock: { now: () => NOW + 5 * DAY * 1000 } })
    expect(later.spot('SOL', NOW - 1000)).toBe(make().spot('SOL', NOW - 1000))
  })

  test('prices move in real time', () => {
    const sim = make()
    expect(sim.spot('BTC', NOW)).not.toBe(sim.spot('BTC', NOW + 2000))
  })
})

describe('candles', () => {
  const sim = make()

  test('350 daily candles, oldest first, chained, ending with the partial current day', () => {
    const rows = sim.candles('BTC', NOW_SEC - 350 * DAY, NOW_SEC, DAY)
    expect(rows).toHaveLength(351)
    expect(rows[0]!.time).toBe(Math.floor((NOW_SEC - 350 * DAY) / DAY) * DAY)
    expect(rows.at(-1)!.time).toBe(Math.floor(NOW_SEC / DAY) * DAY)
    expectWellFormed(rows)
    close(rows.at(-1)!.close, sim.spot('BTC'))
  })

  test('daily = aggregate of 6h = aggregate of 1h; hourly = aggregate of minutes', () => {
    const dayStart = Math.floor(NOW_SEC / DAY) * DAY - 3 * DAY
    const day = sim.candles('ETH', dayStart, dayStart + DAY, DAY)
    const sixHours = sim.candles('ETH', dayStart, dayStart + DAY, 21_600)
    const hours = sim.candles('ETH', dayStart, dayStart + DAY, 3_600)
    expect(day).toHaveLength(1)
    expect(sixHours).toHaveLength(4)
    expect(hours).toHaveLength(24)
    expectAggregates(day[0]!, sixHours)
    expectAggregates(day[0]!, hours)
    for (let i = 0; i < 4; i++) expectAggregates(sixHours[i]!, hours.slice(i * 6, i * 6 + 6))
    const minutes = sim.candles('ETH', dayStart + 7 * 3_600, dayStart + 8 * 3_600, 60)
    expect(minutes).toHaveLength(60)
    expectAggregates(hours[7]!, minutes)
    expectWellFormed(minutes)
  })

  test('granularities that are not tree levels (4h, 2m) aggregate consistently too', () => {
    const dayStart = Math.floor(NOW_SEC / DAY) * DAY - DAY
    const fourHours = sim.candles('XAU', dayStart, dayStart + DAY, 14_400)
    const hours = sim.candles('XAU', dayStart, dayStart + DAY, 3_600)
    expect(fourHours).toHaveLength(6)
    for (let i = 0; i < 6; i++) expectAggregates(fourHours[i]!, hours.slice(i * 4, i * 4 + 4))
    const twoMin = sim.candles('XAU', dayStart, dayStart + 600, 120)
    const oneMin = sim.candles('XAU', dayStart, dayStart + 600, 60)
    for (let i = 0; i < 5; i++) expectAggregates(twoMin[i]!, oneMin.slice(i * 2, i * 2 + 2))
  })

  test('31 days of 6h and 7 days of hourly candles are well formed', () => {
    expectWellFormed(sim.candles('SOL', NOW_SEC - 31 * DAY, NOW_SEC, 21_600))
    expectWellFormed(sim.candles('AAPL', NOW_SEC - 7 * DAY, NOW_SEC, 3_600))
  })

  test('the current bucket is partial: it closes at spot and never looks ahead', () => {
    const hours = sim.candles('BTC', NOW_SEC - 3 * 3_600, NOW_SEC + 10 * 3_600, 3_600)
    const last = hours.at(-1)!
    expect(last.time).toBe(Math.floor(NOW_SEC / 3_600) * 3_600)
    close(last.close, sim.spot('BTC'))
    const minutes = sim.candles('BTC', last.time, NOW_SEC, 60)
    expectAggregates(last, minutes)
    // A later clock reveals more of the same hour; what was already visible stays.
    const later = createMarketSimulator({ seed: 7, clock: { now: () => NOW + 600_000 } })
    const laterHour = later.candles('BTC', last.time, last.time + 1, 3_600)[0]!
    close(laterHour.open, last.open)
    expect(laterHour.high).toBeGreaterThanOrEqual(last.high * (1 - 1e-12))
    expect(laterHour.low).toBeLessThanOrEqual(last.low * (1 + 1e-12))
  })

  test('minute paths stay realistic (no outsized one-minute spikes)', () => {
    const minutes = sim.candles('BTC', NOW_SEC - 2 * DAY, NOW_SEC, 60)
    const sigmaMinute = 0.5 / Math.sqrt(365 * 1440)
    const worstWick = Math.max(...minutes.map((k) => Math.log(k.high / k.low)))
    expect(worstWick).toBeLessThan(25 * sigmaMinute)
  })

  test('rejects bad granularity and unknown symbols with typed errors', () => {
    expect(() => sim.candles('BTC', 0, 1, 0)).toThrow(/granularity/)
    expect(() => sim.spot('NOPE')).toThrow(UnknownSymbolError)
  })
})

describe('stats and perp', () => {
  const sim = make()

  test('stats24h brackets open and last', () => {
    for (const sym of ['BTC', 'USD/JPY', 'WTI', 'TSLA']) {
      const s = sim.stats24h(sym)
      expect(s.high).toBeGreaterThanOrEqual(Math.max(s.open, s.last) * (1 - 1e-12))
      expect(s.low).toBeLessThanOrEqual(Math.min(s.open, s.last) * (1 + 1e-12))
      expect(s.volume).toBeGreaterThan(0)
      expect(s.volume30d).toBeGreaterThan(s.volume)
      close(s.open, sim.spot(sym, NOW - DAY * 1000))
    }
  })

  test('perp mark stays within the spread of the index; OI is positive', () => {
    for (const inst of sim.universe) {
      const q = sim.perp.quote(inst.pairIndex)
      expect(q.index).toBe(sim.spot(inst.symbol))
      expect(Math.abs(q.mark / q.index - 1)).toBeLessThanOrEqual(inst.spreadPct / 100)
      const oi = sim.perp.openInterest(inst.pairIndex)
      expect(oi.longUsd).toBeGreaterThan(0)
      expect(oi.shortUsd).toBeGreaterThan(0)
    }
  })

  test('every symbol in the universe has a positive price near its base', () => {
    for (const inst of sim.universe) {
      const p = sim.spot(inst.symbol)
      expect(p / inst.basePrice).toBeGreaterThan(0.2)
      expect(p / inst.basePrice).toBeLessThan(5)
    }
  })
})

describe('the market of another date (shiftDays, DEVNET_DATE)', () => {
  const SHIFT = 45
  const shifted = createMarketSimulator({ seed: 7, clock, shiftDays: SHIFT })
  // The unshifted market, its clock SHIFT days ahead: what the shifted world shows at NOW.
  const ahead = createMarketSimulator({ seed: 7, clock: { now: () => NOW + SHIFT * DAY * 1000 } })

  test('every figure at clock time t is the path at t + shift; timestamps stay the clock’s', () => {
    for (const sym of ['BTC', 'ETH', 'SOL']) {
      expect(shifted.spot(sym)).toBe(ahead.spot(sym))
      expect(shifted.spot(sym)).not.toBe(make().spot(sym))
      const hours = shifted.candles(sym, NOW_SEC - 6 * 3600, NOW_SEC, 3600)
      const aheadHours = ahead.candles(sym, NOW_SEC + SHIFT * DAY - 6 * 3600, NOW_SEC + SHIFT * DAY, 3600)
      expect(hours.map((c) => c.time)).toEqual(aheadHours.map((c) => c.time - SHIFT * DAY))
      expect(hours.map((c) => c.close)).toEqual(aheadHours.map((c) => c.close))
      const stats = shifted.stats24h(sym)
      expect(stats.at).toBe(NOW)
      expect(stats.last).toBe(ahead.stats24h(sym).last)
    }
    expect(shifted.perp.quote(0)).toEqual(ahead.perp.quote(0))
    expect(shifted.perp.openInterest(1)).toEqual(ahead.perp.openInterest(1))
    expect(shifted.historyStartSec).toBe(make().historyStartSec - SHIFT * DAY)
  })

  test('only whole days', () => {
    expect(() => createMarketSimulator({ seed: 7, clock, shiftDays: 0.5 })).toThrow(/whole days/)
  })
})
