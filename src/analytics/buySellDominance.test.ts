import { describe, expect, test } from 'vitest'
import type { Bar } from './bar.js'
import { buySellDominance, type Dominance } from './buySellDominance.js'

/** One bar per minute; `d` is close − open (+ up, − down, 0 doji) around 100. */
function bar(i: number, d: number, volume: number | null, t = 1_800_000_000 + i * 60): Bar {
  return {
    t,
    open: 100,
    high: 100 + Math.max(d, 0) + 1,
    low: 100 + Math.min(d, 0) - 1,
    close: 100 + d,
    volume,
  }
}

function ok(r: ReturnType<typeof buySellDominance>): Dominance {
  if (r.status !== 'ok') throw new Error(`expected a read, got ${JSON.stringify(r)}`)
  return r
}

const finite = (d: Dominance) => expect(Number.isFinite(d.buyPct) && Number.isFinite(d.sellPct)).toBe(true)

describe('buySellDominance', () => {
  test('behavior: a rising series (every bar up) is 100% buy', () => {
    const r = ok(buySellDominance(Array.from({ length: 12 }, (_, i) => bar(i, 1, 50))))
    expect(r).toEqual({ status: 'ok', buyPct: 100, sellPct: 0, dominance: 'buy', basis: 'volume' })
  })

  test('behavior: a falling series (every bar down) is 100% sell', () => {
    const r = ok(buySellDominance(Array.from({ length: 12 }, (_, i) => bar(i, -1, 50))))
    expect(r).toEqual({ status: 'ok', buyPct: 0, sellPct: 100, dominance: 'sell', basis: 'volume' })
  })

  test('behavior: a flat series (every bar a doji) splits 50/50, even', () => {
    const r = ok(buySellDominance(Array.from({ length: 10 }, (_, i) => bar(i, 0, 7))))
    expect(r).toEqual({ status: 'ok', buyPct: 50, sellPct: 50, dominance: 'even', basis: 'volume' })
  })

  test('behavior: volume-weighted shares by hand: up 30 + 20 + half a 10 doji against down 10 + 15', () => {
    const vols: [number, number][] = [
      [1, 30],
      [2, 20],
      [-1, 10],
      [-3, 15],
      [0, 10],
      [1, 0],
      [-1, 0],
      [1, 0],
      [-1, 0],
      [0, 0],
    ]
    const r = ok(buySellDominance(vols.map(([d, v], i) => bar(i, d, v))))
    // buy = 30 + 20 + 5 = 55, sell = 10 + 15 + 5 = 30, total 85.
    expect(r.buyPct).toBeCloseTo((55 / 85) * 100, 12)
    expect(r.sellPct).toBeCloseTo((30 / 85) * 100, 12)
    expect(r.dominance).toBe('buy')
    expect(r.basis).toBe('volume')
  })

  test('behavior: without any volume the shares are bar counts (basis count); null volume weighs 0 otherwise', () => {
    const ds = [1, 1, 1, 1, 1, 1, -1, -1, -1, 0]
    // 6 up + half a doji of 10 bars = 65%.
    expect(ok(buySellDominance(ds.map((d, i) => bar(i, d, null))))).toEqual({
      status: 'ok',
      buyPct: 65,
      sellPct: 35,
      dominance: 'buy',
      basis: 'count',
    })
    expect(ok(buySellDominance(ds.map((d, i) => bar(i, d, 0)))).basis).toBe('count')
    // One down bar with volume 4 and the rest null: only that bar weighs.
    const mixed = ds.map((d, i) => bar(i, d, i === 6 ? 4 : null))
    expect(ok(buySellDominance(mixed))).toEqual({
      status: 'ok',
      buyPct: 0,
      sellPct: 100,
      dominance: 'sell',
      basis: 'volume',
    })
  })

  test('behavior: exactly 55% is buy and exactly 45% is sell (thresholds inclusive)', () => {
    const up = (n: number) => Array.from({ length: 20 }, (_, i) => bar(i, i < n ? 1 : -1, null))
    expect(ok(buySellDominance(up(11)))).toMatchObject({ buyPct: 55, sellPct: 45, dominance: 'buy' })
    expect(ok(buySellDominance(up(9)))).toMatchObject({ buyPct: 45, sellPct: 55, dominance: 'sell' })
    expect(ok(buySellDominance(up(10))).dominance).toBe('even')
  })

  test('behavior: a gap in time changes nothing (bars are weighed, not timed)', () => {
    const ds = [1, -1, 1, 1, -1, 0, 1, -1, -1, 1, 1]
    const plain = buySellDominance(ds.map((d, i) => bar(i, d, 10 + i)))
    const gapped = buySellDominance(
      ds.map((d, i) => bar(i, d, 10 + i, 1_800_000_000 + i * 60 + (i > 4 ? 3600 : 0))),
    )
    expect(gapped).toEqual(plain)
    finite(ok(plain))
  })

  test('default: fewer than 10 bars is insufficient_history', () => {
    expect(buySellDominance(Array.from({ length: 9 }, (_, i) => bar(i, 1, 1)))).toEqual({
      status: 'insufficient_history',
      needed: 10,
      got: 9,
    })
    expect(buySellDominance([])).toEqual({ status: 'insufficient_history', needed: 10, got: 0 })
  })

  test('behavior: the same bars give the same read', () => {
    const make = () => [1, -2, 0, 3, -1, 1, 1, -1, 2, -3, 0, 1].map((d, i) => bar(i, d, (i * 37) % 11))
    expect(buySellDominance(make())).toEqual(buySellDominance(make()))
  })

  test('error: a negative or non-finite volume or a non-finite price throws RangeError', () => {
    const bars = Array.from({ length: 10 }, (_, i) => bar(i, 1, 1))
    expect(() => buySellDominance(bars.map((b, i) => (i === 3 ? { ...b, volume: -1 } : b)))).toThrow(
      RangeError,
    )
    expect(() => buySellDominance(bars.map((b, i) => (i === 3 ? { ...b, volume: Number.NaN } : b)))).toThrow(
      RangeError,
    )
    expect(() =>
      buySellDominance(bars.map((b, i) => (i === 3 ? { ...b, close: Number.POSITIVE_INFINITY } : b))),
    ).toThrow(RangeError)
  })
})
