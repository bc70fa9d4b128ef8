import { describe, expect, test } from 'vitest'
import { createMarketSimulator } from '../simulator/marketSimulator.js'
import { createPythBenchmarksApp, parseResolution } from './pythBenchmarksApp.js'

const NOW = Date.UTC(2026, 10, 15, 12, 34, 56, 789)
const NOW_SEC = Math.floor(NOW / 1000)
const sim = createMarketSimulator({ seed: 11, clock: { now: () => NOW } })
// Shapes only: the documented rate limit is held in test/upstreams/*.contract.test.ts.
const ROOMY = { max: 1000, windowMs: 1000 }
const app = createPythBenchmarksApp({ sim, rateLimit: ROOMY })

interface Udf {
  s: string
  t: number[]
  o: number[]
  h: number[]
  l: number[]
  c: number[]
  v: number[]
  errmsg?: string
}

const history = async (query: string) =>
  (await (await app.request(`/v1/shims/tradingview/history?${query}`)).json()) as Udf

describe('pyth benchmarks tradingview shim', () => {
  test('daily bars: {s, t, o, h, l, c, v} parallel arrays, oldest first', async () => {
    const from = NOW_SEC - 350 * 86_400
    const u = await history(`symbol=Metal.XAU/USD&resolution=1D&from=${from}&to=${NOW_SEC}`)
    expect(u.s).toBe('ok')
    expect(u.t.length).toBe(350)
    for (const key of ['o', 'h', 'l', 'c', 'v'] as const) expect(u[key]).toHaveLength(u.t.length)
    for (let i = 1; i < u.t.length; i++) expect(u.t[i]! - u.t[i - 1]!).toBe(86_400)
    u.t.forEach((_, i) => {
      expect(u.h[i]!).toBeGreaterThanOrEqual(Math.max(u.o[i]!, u.c[i]!))
      expect(u.l[i]!).toBeLessThanOrEqual(Math.min(u.o[i]!, u.c[i]!))
      expect(u.t[i]!).toBeGreaterThanOrEqual(from)
    })
  })

  test('equities, forex and intraday resolutions', async () => {
    const aapl = await history(
      `symbol=Equity.US.AAPL/USD&resolution=60&from=${NOW_SEC - 86_400}&to=${NOW_SEC}`,
    )
    expect(aapl.s).toBe('ok')
    expect(aapl.t.length).toBeGreaterThanOrEqual(24)
    const fx = await history(`symbol=FX.USD/JPY&resolution=240&from=${NOW_SEC - 7 * 86_400}&to=${NOW_SEC}`)
    expect(fx.t.every((t) => t % 14_400 === 0)).toBe(true)
    const weekly = await history(
      `symbol=FX.EUR/USD&resolution=1W&from=${NOW_SEC - 70 * 86_400}&to=${NOW_SEC}`,
    )
    // Weekly bars open on Mondays.
    expect(weekly.t.every((t) => new Date(t * 1000).getUTCDay() === 1)).toBe(true)
  })

  test('future range → ok with empty series (the contract’s empty answer); unknown symbol → error', async () => {
    expect(
      await history(
        `symbol=Crypto.BTC/USD&resolution=D&from=${NOW_SEC + 86_400 * 2}&to=${NOW_SEC + 86_400 * 5}`,
      ),
    ).toEqual({ s: 'ok', t: [], o: [], h: [], l: [], c: [], v: [] })
    const bad = await history(`symbol=Crypto.NOPE/USD&resolution=D&from=${NOW_SEC - 86_400}&to=${NOW_SEC}`)
    expect(bad.s).toBe('error')
    expect(typeof bad.errmsg).toBe('string')
  })

  test('parseResolution', () => {
    expect(parseResolution('1')).toBe(60)
    expect(parseResolution('240')).toBe(14_400)
    expect(parseResolution('D')).toBe(86_400)
    expect(parseResolution('1D')).toBe(86_400)
    expect(parseResolution('1W')).toBe(604_800)
    expect(parseResolution('x')).toBeUndefined()
  })
})
