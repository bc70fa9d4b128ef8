import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createMarketSimulator } from '../../src/devnet/simulator/marketSimulator.js'
import {
  createPythBenchmarksApp,
  PYTH_TRADINGVIEW_RATE_LIMIT,
} from '../../src/devnet/upstreams/pythBenchmarksApp.js'
import { createPythHermesApp, PYTH_RATE_LIMIT } from '../../src/devnet/upstreams/pythHermesApp.js'
import { UpstreamError } from '../../src/errors.js'
import { createFetchJson } from '../../src/market/upstreams/fetchJson.js'
import { createPyth } from '../../src/market/upstreams/pyth.js'
import { createWindowLimit } from '../../src/market/upstreams/windowLimit.js'
import { type Captured, startCaptureServer } from './captureServer.js'
import { loadHermesSdk } from './hermesSdk.js'
import { loadContract, operationOf, requestProblems, responseProblems } from './openapiContract.js'

/**
 * Pyth Hermes v2 against the official SDK's runtime schemas and endpoint table (@pythnetwork/hermes-client
 * 3.1.0), Pyth Benchmarks' TradingView shim against its OpenAPI (both vendored with provenance in
 * test/fixtures/upstreams/pyth): the simulators' answers and gates, the adapter's requests and reads.
 */
const sdk = await loadHermesSdk()
const benchmarks = await loadContract('pyth/benchmarks.openapi.json')
const HISTORY = operationOf(benchmarks, 'get', '/v1/shims/tradingview/history')
const KEY = 'contract-test-pyth-key'
const AUTH = { authorization: `Bearer ${KEY}` }
const ROOMY = { max: 1000, windowMs: 1000 }
const NOW = Date.UTC(2026, 10, 15, 12, 0, 0)
const sim = createMarketSimulator({ seed: 11, clock: { now: () => NOW } })
const BTC = 'e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43'
const ETH = 'ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace'
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/upstreams/pyth/examples/${name}`, import.meta.url), 'utf8'))

const issues = (
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: unknown[] } } },
  v: unknown,
) => {
  const r = schema.safeParse(v)
  return r.success ? [] : (r.error?.issues ?? ['refused'])
}

describe('Hermes simulator answers as the SDK', () => {
  const hermes = createPythHermesApp({ sim, apiKey: KEY, rateLimit: ROOMY })
  const get = (path: string) => hermes.request(path, { headers: AUTH })

  test('contract: the feed catalogue and a latest update parse with the SDK’s own schemas', async () => {
    const feeds = await (await get('/v2/price_feeds')).json()
    expect(issues(sdk.endpoint('get', '/v2/price_feeds').response, feeds)).toEqual([])
    const latest = await (await get(`/v2/updates/price/latest?ids[]=${BTC}&ids[]=${ETH}&parsed=true`)).json()
    expect(issues(sdk.schemas.PriceUpdate as never, latest)).toEqual([])
    // The check bites: a mantissa sent as a JSON number is not the SDK's RpcPrice.
    const drifted = structuredClone(latest) as { parsed: { price: { price: unknown } }[] }
    ;(drifted.parsed[0] as { price: { price: unknown } }).price.price = 6_400_000_000_000
    expect(issues(sdk.schemas.PriceUpdate as never, drifted)).not.toEqual([])
  })

  test('contract: every asset type of the SDK’s enum is a filter the simulator takes; another is 400', async () => {
    const types = (sdk.schemas.AssetType as unknown as { options: string[] }).options
    for (const t of types) expect((await get(`/v2/price_feeds?asset_type=${t}`)).status, t).toBe(200)
    expect((await get('/v2/price_feeds?asset_type=Crypto')).status).toBe(400)
  })

  test('gate: no key or a wrong one is 401; past 10 requests in 10 s every request is 429 for 60 s', async () => {
    expect((await hermes.request('/v2/price_feeds')).status).toBe(401)
    expect(
      (await hermes.request('/v2/price_feeds', { headers: { authorization: 'Bearer other' } })).status,
    ).toBe(401)
    const limited = createPythHermesApp({ sim, apiKey: KEY, rateLimit: { ...PYTH_RATE_LIMIT, now: () => 0 } })
    const statuses: number[] = []
    for (let i = 0; i < 12; i++)
      statuses.push((await limited.request('/v2/price_feeds', { headers: AUTH })).status)
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429])
    const locked = await limited.request('/v2/price_feeds', { headers: AUTH })
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(55)
  })
})

describe('Benchmarks simulator answers as the OpenAPI', () => {
  const shim = createPythBenchmarksApp({ sim, apiKey: KEY, rateLimit: ROOMY })
  const history = (q: string) => shim.request(`/v1/shims/tradingview/history?${q}`, { headers: AUTH })
  const now = Math.floor(NOW / 1000)

  test('contract: bars, an empty range and a bad query validate against the 200 and 422 schemas', async () => {
    const bars = await history(`symbol=Metal.XAU/USD&resolution=60&from=${now - 86_400}&to=${now}`)
    const body = (await bars.json()) as { s: string; t: number[] }
    expect(body.s).toBe('ok')
    expect(body.t.length).toBeGreaterThan(0)
    expect(responseProblems(HISTORY, 200, body)).toEqual([])
    const empty = await (
      await history(`symbol=Metal.XAU/USD&resolution=D&from=${now + 86_400 * 3}&to=${now + 86_400 * 5}`)
    ).json()
    expect(empty).toEqual({ s: 'ok', t: [], o: [], h: [], l: [], c: [], v: [] })
    expect(responseProblems(HISTORY, 200, empty)).toEqual([])
    const bad = await history('symbol=Metal.XAU/USD&resolution=60&from=yesterday')
    expect(bad.status).toBe(422)
    expect(responseProblems(HISTORY, 422, await bad.json())).toEqual([])
    // The check bites: the UDF `no_data` answer is not in this contract's 200.
    expect(responseProblems(HISTORY, 200, { s: 'no_data' })).not.toEqual([])
  })

  test('gate: no key is 401; past 90 requests in 10 s the TradingView routes answer 429', async () => {
    expect(
      (await shim.request('/v1/shims/tradingview/history?symbol=x&resolution=1&from=1&to=2')).status,
    ).toBe(401)
    const limited = createPythBenchmarksApp({
      sim,
      apiKey: KEY,
      rateLimit: { ...PYTH_TRADINGVIEW_RATE_LIMIT, now: () => 0 },
    })
    let last = 0
    for (let i = 0; i < 91; i++)
      last = (
        await limited.request(
          `/v1/shims/tradingview/history?symbol=Metal.XAU/USD&resolution=D&from=${now - 86_400}&to=${now}`,
          { headers: AUTH },
        )
      ).status
    expect(last).toBe(429)
  })
})

describe('Pyth adapter speaks the contracts', () => {
  let server: Awaited<ReturnType<typeof startCaptureServer>>
  const latestExample = fixture('hermes.v2.updates.price.latest.json') as {
    parsed: { id: string; price: { price: string; expo: number } }[]
  }
  beforeAll(async () => {
    server = await startCaptureServer((url) => {
      if (url.pathname === '/v2/price_feeds')
        return {
          body: [
            {
              id: BTC,
              attributes: {
                asset_type: 'Crypto',
                base: 'BTC',
                quote_currency: 'USD',
                symbol: 'Crypto.BTC/USD',
              },
            },
          ],
        }
      if (url.pathname === '/v2/updates/price/latest') return { body: latestExample }
      return { body: fixture('benchmarks.v1.shims.tradingview.history.ok.json') }
    })
  })
  afterAll(() => server.stop())
  const requestsTo = (path: string): Captured[] => server.requests.filter((r) => r.url.pathname === path)

  test('contract: Hermes and Benchmarks requests carry the key and only the parameters their contracts declare', async () => {
    const pyth = createPyth(server.url, server.url, createFetchJson(), { apiKey: KEY })
    await pyth.feeds()
    await pyth.latest(latestExample.parsed.map((p) => p.id))
    await pyth.history('Crypto.BTC/USD', '60', 1_684_137_600, 1_684_141_200)
    for (const r of server.requests)
      expect(r.headers.get('authorization'), r.url.pathname).toBe(`Bearer ${KEY}`)
    for (const [path, endpoint] of [
      ['/v2/price_feeds', sdk.endpoint('get', '/v2/price_feeds')],
      ['/v2/updates/price/latest', sdk.endpoint('get', '/v2/updates/price/latest')],
    ] as const) {
      const declared = new Set(endpoint.parameters.filter((p) => p.type === 'Query').map((p) => p.name))
      const [r] = requestsTo(path)
      expect(r, path).toBeDefined()
      for (const name of new Set(r?.url.searchParams.keys()))
        expect(declared, `${path} ?${name}`).toContain(name)
    }
    // The options our reads depend on are sent, whatever the server's default.
    const latest = requestsTo('/v2/updates/price/latest')[0]?.url.searchParams
    expect(latest?.get('parsed')).toBe('true')
    expect(latest?.get('ignore_invalid_price_ids')).toBe('true')
    const [h] = requestsTo('/v1/shims/tradingview/history')
    expect(requestProblems(HISTORY, h?.url as URL, h?.headers as Headers)).toEqual([])
  })

  test('contract: the documented latest answer reads to price × 10^expo per id; the history example to its bars', async () => {
    const pyth = createPyth(server.url, server.url, createFetchJson(), { apiKey: KEY })
    const prices = await pyth.latest(latestExample.parsed.map((p) => p.id))
    for (const p of latestExample.parsed)
      expect(prices.get(p.id)?.price).toBe(Number(p.price.price) * 10 ** p.price.expo)
    const official = fixture('benchmarks.v1.shims.tradingview.history.ok.json') as {
      t: number[]
      c: number[]
    }
    const bars = await pyth.history('Crypto.BTC/USD', '1', 1, 2)
    expect(bars.map((b) => [b.time, b.close])).toEqual(official.t.map((t, i) => [t, official.c[i]]))
  })

  test('limits: callers arriving while a latest request is on the wire wait for it and send nothing', async () => {
    const slow = await startCaptureServer(() => ({ body: latestExample, delayMs: 200 }))
    try {
      const pyth = createPyth(slow.url, slow.url, createFetchJson(), { apiKey: KEY })
      const id = latestExample.parsed[0]?.id as string
      const reads: Promise<Map<string, unknown>>[] = []
      for (let i = 0; i < 12; i++) {
        reads.push(pyth.latest([id]))
        await new Promise((r) => setTimeout(r, 5))
      }
      expect((await Promise.all(reads)).every((m) => m.has(id))).toBe(true)
      expect(slow.requests).toHaveLength(1)
    } finally {
      await slow.stop()
    }
  })

  test('limits: concurrent latest reads share one request; past our own 10 per 10 s we refuse, never drawing Pyth’s 429', async () => {
    const upstream = createPythHermesApp({ sim, apiKey: KEY })
    const answered: number[] = []
    const { serve } = await import('@hono/node-server')
    const s = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const srv = serve(
        {
          fetch: async (req) => {
            const res = await upstream.fetch(req)
            answered.push(res.status)
            return res
          },
          port: 0,
          hostname: '127.0.0.1',
        },
        () => resolve(srv),
      )
    })
    const url = `http://127.0.0.1:${(s.address() as { port: number }).port}`
    let clock = NOW
    try {
      const limit = createWindowLimit({ upstream: 'Pyth Hermes', max: 10, windowMs: 10_000, marginMs: 250 })
      const pyth = createPyth(url, url, createFetchJson(), {
        apiKey: KEY,
        hermesLimit: limit,
        now: () => clock,
      })
      // Five callers at once, five id sets: one request answers all.
      const feeds = await pyth.feeds()
      const byCaller = await Promise.all(feeds.slice(0, 5).map((f) => pyth.latest([f.id])))
      expect(byCaller.every((m) => m.size === 1)).toBe(true)
      expect(answered).toEqual([200, 200])
      // Eight more turns fill the window (feeds and the batch took two); the next is refused here, at once.
      for (let i = 0; i < 8; i++) {
        clock += 2000
        await pyth.latest([feeds[0]?.id as string])
      }
      clock += 2000
      const refused = await pyth.latest([feeds[0]?.id as string]).catch((e: unknown) => e)
      expect(refused).toBeInstanceOf(UpstreamError)
      expect((refused as UpstreamError).message).toMatch(/our own limit/)
      // Pyth answered every request it was sent, ten in the window, and never a 429 (its 60 s lock-out).
      expect(answered).toEqual(Array(10).fill(200))
    } finally {
      s.close()
    }
  })
})
