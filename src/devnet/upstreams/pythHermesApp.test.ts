import { keccak256, stringToHex } from 'viem'
import { describe, expect, test } from 'vitest'
import { createMarketSimulator } from '../simulator/marketSimulator.js'
import { createPythHermesApp } from './pythHermesApp.js'

const NOW = Date.UTC(2026, 10, 15, 12, 34, 56, 789)
const sim = createMarketSimulator({ seed: 11, clock: { now: () => NOW } })
// Shapes only: the documented rate limit is held in test/upstreams/*.contract.test.ts.
const ROOMY = { max: 1000, windowMs: 1000 }
const app = createPythHermesApp({ sim, rateLimit: ROOMY })
const BTC_ID = 'e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43'

interface Feed {
  id: string
  attributes: Record<string, string>
}

describe('pyth hermes simulator', () => {
  test('price_feeds search by query and asset_type', async () => {
    const res = await app.request('/v2/price_feeds?query=btc&asset_type=crypto')
    expect(res.status).toBe(200)
    const feeds = (await res.json()) as Feed[]
    const btc = feeds.find((f) => f.attributes.symbol === 'Crypto.BTC/USD')
    expect(btc?.id).toBe(BTC_ID)
    expect(btc?.attributes).toMatchObject({ asset_type: 'Crypto', base: 'BTC', quote_currency: 'USD' })
    const equities = (await (await app.request('/v2/price_feeds?asset_type=equity')).json()) as Feed[]
    const aapl = equities.find((f) => f.attributes.symbol === 'Equity.US.AAPL/USD')
    expect(aapl?.id).toBe(keccak256(stringToHex('Equity.US.AAPL/USD')).slice(2))
    expect(equities.every((f) => f.attributes.asset_type === 'Equity')).toBe(true)
    for (const f of equities) expect(f.id).toMatch(/^[0-9a-f]{64}$/)
  })

  test('latest: parsed price objects with string price/conf, integer expo, unix publish_time', async () => {
    const feeds = (await (await app.request('/v2/price_feeds?query=EUR/USD')).json()) as Feed[]
    const eur = feeds.find((f) => f.attributes.symbol === 'FX.EUR/USD')!
    const res = await app.request(`/v2/updates/price/latest?ids[]=0x${BTC_ID}&ids[]=${eur.id}`)
    expect(res.status).toBe(200)
    const body = (await res.json()) as {
      binary: { encoding: string; data: string[] }
      parsed: {
        id: string
        price: { price: string; conf: string; expo: number; publish_time: number }
        ema_price: { price: string }
        metadata: { slot: number; proof_available_time: number; prev_publish_time: number }
      }[]
    }
    expect(body.binary.encoding).toBe('hex')
    expect(body.binary.data[0]).toMatch(/^[0-9a-f]+$/)
    expect(body.parsed.map((p) => p.id)).toEqual([BTC_ID, eur.id])
    const [btc, fx] = body.parsed
    expect(btc!.price.price).toMatch(/^\d+$/)
    expect(btc!.price.conf).toMatch(/^\d+$/)
    expect(btc!.price.expo).toBe(-8)
    expect(btc!.price.publish_time).toBe(Math.floor(NOW / 1000))
    const value = Number(btc!.price.price) * 10 ** btc!.price.expo
    expect(Math.abs(value / sim.spot('BTC', Math.floor(NOW / 1000) * 1000) - 1)).toBeLessThan(1e-8)
    expect(fx!.price.expo).toBe(-5)
    expect(typeof btc!.metadata.slot).toBe('number')
  })

  test('unknown id → 404 text; ignore_invalid_price_ids drops it; malformed → 400', async () => {
    const unknown = 'ab'.repeat(32)
    const res = await app.request(`/v2/updates/price/latest?ids[]=${unknown}`)
    expect(res.status).toBe(404)
    expect(await res.text()).toBe(`Price ids not found: 0x${unknown}`)
    const ignored = await app.request(
      `/v2/updates/price/latest?ids[]=${unknown}&ids[]=${BTC_ID}&ignore_invalid_price_ids=true`,
    )
    expect(((await ignored.json()) as { parsed: unknown[] }).parsed).toHaveLength(1)
    expect((await app.request('/v2/updates/price/latest?ids[]=xyz')).status).toBe(400)
    expect((await app.request('/v2/updates/price/latest')).status).toBe(400)
  })
})
