import { describe, expect, test } from 'vitest'
import { createMarketSimulator } from '../simulator/marketSimulator.js'
import { createCoinbaseExchangeApp } from './coinbaseExchangeApp.js'

const NOW = Date.UTC(2026, 10, 15, 12, 34, 56, 789)
const NOW_SEC = Math.floor(NOW / 1000)
const sim = createMarketSimulator({ seed: 11, clock: { now: () => NOW } })
const app = createCoinbaseExchangeApp({ sim })
const get = async (path: string) => {
  const res = await app.request(path)
  return { status: res.status, body: (await res.json()) as unknown }
}
const iso = (sec: number) => new Date(sec * 1000).toISOString()

describe('coinbase exchange simulator', () => {
  test('ticker: documented fields, strings except trade_id', async () => {
    const { status, body } = await get('/products/BTC-USD/ticker')
    expect(status).toBe(200)
    const t = body as Record<string, unknown>
    expect(Object.keys(t).sort()).toEqual(['ask', 'bid', 'price', 'size', 'time', 'trade_id', 'volume'])
    for (const k of ['ask', 'bid', 'price', 'size', 'volume']) expect(t[k]).toMatch(/^\d+\.\d+$/)
    expect(typeof t.trade_id).toBe('number')
    expect(t.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    expect(Number(t.ask)).toBeGreaterThan(Number(t.bid))
    expect(Math.abs(Number(t.price) / sim.spot('BTC') - 1)).toBeLessThan(1e-6)
  })

  test('stats: open/high/low/last/volume/volume_30day as strings', async () => {
    const { status, body } = await get('/products/eth-usd/stats')
    expect(status).toBe(200)
    const s = body as Record<string, string>
    expect(Object.keys(s).sort()).toEqual(['high', 'last', 'low', 'open', 'volume', 'volume_30day'])
    for (const v of Object.values(s)) expect(v).toMatch(/^\d+\.\d+$/)
    expect(Number(s.high)).toBeGreaterThanOrEqual(Number(s.low))
  })

  test('candles: numeric rows [time, low, high, open, close, volume], newest first', async () => {
    const start = NOW_SEC - 100 * 3600
    const { status, body } = await get(
      `/products/SOL-USD/candles?granularity=3600&start=${iso(start)}&end=${iso(NOW_SEC)}`,
    )
    expect(status).toBe(200)
    const rows = body as number[][]
    expect(rows.length).toBeGreaterThanOrEqual(100)
    expect(rows.length).toBeLessThanOrEqual(101)
    for (const row of rows) {
      expect(row).toHaveLength(6)
      for (const v of row) expect(typeof v).toBe('number')
      const [time, low, high, open, close] = row as [number, number, number, number, number]
      expect(time % 3600).toBe(0)
      expect(low).toBeLessThanOrEqual(Math.min(open, close))
      expect(high).toBeGreaterThanOrEqual(Math.max(open, close))
    }
    for (let i = 1; i < rows.length; i++) expect(rows[i]![0]).toBe(rows[i - 1]![0]! - 3600)
    expect(rows[0]![0]).toBe(Math.floor(NOW_SEC / 3600) * 3600)
  })

  test('candles accept unix-second start/end and default to the latest 300 without a range', async () => {
    const ranged = await get(`/products/BTC-USD/candles?granularity=60&start=${NOW_SEC - 600}&end=${NOW_SEC}`)
    expect((ranged.body as unknown[]).length).toBeGreaterThanOrEqual(10)
    const latest = await get('/products/BTC-USD/candles?granularity=86400')
    expect(latest.status).toBe(200)
    expect(latest.body as unknown[]).toHaveLength(300)
    const onlyStart = await get(`/products/BTC-USD/candles?granularity=300&start=${iso(NOW_SEC - 3600)}`)
    expect(onlyStart.body as unknown[]).toHaveLength(300)
  })

  test('more than 300 candles → 400 with the Exchange error body', async () => {
    const { status, body } = await get(
      `/products/BTC-USD/candles?granularity=60&start=${iso(NOW_SEC - 301 * 60)}&end=${iso(NOW_SEC)}`,
    )
    expect(status).toBe(400)
    expect(body).toEqual({
      message:
        'granularity too small for the requested time range. Count of aggregations requested exceeds 300',
    })
  })

  test('unsupported granularity → 400', async () => {
    const { status, body } = await get('/products/BTC-USD/candles?granularity=120')
    expect(status).toBe(400)
    expect(body).toEqual({ message: 'Unsupported granularity' })
  })

  test('unknown or non-Coinbase product → 404 {"message":"NotFound"}', async () => {
    for (const path of ['/products/BNB-USD/ticker', '/products/XAU-USD/stats', '/products/FOO-USD/candles']) {
      const { status, body } = await get(path)
      expect(status).toBe(404)
      expect(body).toEqual({ message: 'NotFound' })
    }
  })

  test('product list carries only Coinbase crypto products', async () => {
    const { body } = await get('/products')
    const ids = (body as { id: string }[]).map((p) => p.id)
    expect(ids).toContain('BTC-USD')
    expect(ids).not.toContain('BNB-USD')
    expect(ids.every((id) => id.endsWith('-USD'))).toBe(true)
  })
})
