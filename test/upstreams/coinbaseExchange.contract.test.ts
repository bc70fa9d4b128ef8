import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createMarketSimulator } from '../../src/devnet/simulator/marketSimulator.js'
import {
  COINBASE_RATE_LIMIT,
  createCoinbaseExchangeApp,
} from '../../src/devnet/upstreams/coinbaseExchangeApp.js'
import { createCoinbaseExchange } from '../../src/market/upstreams/coinbaseExchange.js'
import { createFetchJson } from '../../src/market/upstreams/fetchJson.js'
import { startCaptureServer } from './captureServer.js'
import { loadContract, operationOf, requestProblems, responseProblems } from './openapiContract.js'

/**
 * Coinbase Exchange's public market data against its official spec (coinbase-samples/exchange-sdk-ts
 * `apiSpec/exchange-spec.json`, Swagger 2.0, vendored with provenance in test/fixtures/upstreams/
 * coinbase-exchange): the simulator's answers and rate limit, the adapter's requests and reads.
 */
const spec = await loadContract('coinbase-exchange/openapi/exchange-spec.json')
const PRODUCTS = operationOf(spec, 'get', '/products')
const TICKER = operationOf(spec, 'get', '/products/{product_id}/ticker')
const STATS = operationOf(spec, 'get', '/products/{product_id}/stats')
const CANDLES = operationOf(spec, 'get', '/products/{product_id}/candles')
const example = (name: string): unknown =>
  JSON.parse(
    readFileSync(
      new URL(`../fixtures/upstreams/coinbase-exchange/examples/${name}`, import.meta.url),
      'utf8',
    ),
  )
const NOW = Date.UTC(2026, 10, 15, 12, 0, 0)
const sim = createMarketSimulator({ seed: 11, clock: { now: () => NOW } })
const ROOMY = { max: 1000, windowMs: 1000 }

describe('Coinbase Exchange simulator answers as the spec', () => {
  const app = createCoinbaseExchangeApp({ sim, rateLimit: ROOMY })
  const json = async (path: string) => (await app.request(path)).json()

  test('contract: products, ticker, stats and candles validate against their 200 schemas', async () => {
    const products = await json('/products')
    expect(responseProblems(PRODUCTS, 200, products)).toEqual([])
    const ticker = await json('/products/BTC-USD/ticker')
    expect(responseProblems(TICKER, 200, ticker)).toEqual([])
    expect(responseProblems(STATS, 200, await json('/products/BTC-USD/stats'))).toEqual([])
    const end = new Date(NOW).toISOString()
    const start = new Date(NOW - 3600_000).toISOString()
    const candles = (await json(
      `/products/BTC-USD/candles?granularity=60&start=${start}&end=${end}`,
    )) as number[][]
    // The spec's candles schema is a generator artefact (an array of objects, where the exchange sends
    // arrays): rows are held to the docs instead, six numbers [time, low, high, open, close, volume],
    // newest first (docs/get-product-candles.excerpt.md).
    expect(candles.every((r) => r.length === 6 && r.every((v) => typeof v === 'number'))).toBe(true)
    expect(candles[0]?.[0]).toBeGreaterThan(candles[1]?.[0] as number)
    // The check bites: a ticker whose trade_id is past int32, or whose price is a number, is refused.
    expect(responseProblems(TICKER, 200, { ...(ticker as object), trade_id: 2 ** 31 })).not.toEqual([])
    expect(responseProblems(TICKER, 200, { ...(ticker as object), price: 1 })).not.toEqual([])
  })

  test('gate: the public bucket answers bursts of 15, then 429', async () => {
    // The documented bucket on a clock held still: no refill between requests, however slow the machine.
    const limited = createCoinbaseExchangeApp({ sim, rateLimit: { ...COINBASE_RATE_LIMIT, now: () => 0 } })
    const statuses: number[] = []
    for (let i = 0; i < 16; i++) statuses.push((await limited.request('/products/BTC-USD/ticker')).status)
    expect(statuses.slice(0, 15).every((s) => s === 200)).toBe(true)
    expect(statuses[15]).toBe(429)
  })
})

describe('Coinbase Exchange adapter speaks the spec', () => {
  let server: Awaited<ReturnType<typeof startCaptureServer>>
  beforeAll(async () => {
    server = await startCaptureServer((url) => {
      if (url.pathname === '/products') return { body: example('get-products.json') }
      if (url.pathname.endsWith('/ticker')) return { body: example('get-product-ticker.json') }
      if (url.pathname.endsWith('/stats')) return { body: example('get-product-stats.json') }
      return { body: example('get-product-candles.json') }
    })
  })
  afterAll(() => server.stop())

  test('contract: requests use only declared parameters, with the granularity and range set explicitly', async () => {
    const exchange = createCoinbaseExchange(server.url, createFetchJson())
    await exchange.products()
    await exchange.ticker('BTC-USD')
    await exchange.stats('BTC-USD')
    await exchange.candles('BTC-USD', 3600, 1_700_000_000, 1_700_360_000)
    const ops = [PRODUCTS, TICKER, STATS, CANDLES]
    expect(server.requests).toHaveLength(4)
    server.requests.forEach((r, i) => {
      expect(requestProblems(ops[i] as never, r.url, r.headers), r.url.pathname).toEqual([])
      // Coinbase asks every client for a User-Agent.
      expect(r.headers.get('user-agent')).toBeTruthy()
    })
    // Without start and end the exchange ignores both and answers the latest bars: always sent.
    const candles = server.requests[3]?.url.searchParams
    expect([candles?.get('granularity'), candles?.get('start'), candles?.get('end')]).toEqual([
      '3600',
      '2023-11-14T22:13:20.000Z',
      '2023-11-19T02:13:20.000Z',
    ])
  })

  test('contract: the spec’s examples read to their own figures; a missing price is an error, never 0', async () => {
    const exchange = createCoinbaseExchange(server.url, createFetchJson())
    const ticker = example('get-product-ticker.json') as { price: string; volume: string }
    expect(await exchange.ticker('ETH-USD')).toEqual({
      price: Number(ticker.price),
      volume: Number(ticker.volume),
    })
    const products = example('get-products.json') as { id: string; status: string }[]
    expect([...(await exchange.products())]).toEqual(
      products.filter((p) => p.status === 'online').map((p) => p.id),
    )
    const rows = example('get-product-candles.json') as number[][]
    const bars = await exchange.candles('ETH-USD', 60, 1, 2)
    expect(bars.map((b) => b.time)).toEqual(
      rows.map((r) => r[0]).sort((a, b) => (a as number) - (b as number)),
    )
    const empty = await startCaptureServer(() => ({ body: { ...ticker, price: '' } }))
    try {
      await expect(createCoinbaseExchange(empty.url, createFetchJson()).ticker('ETH-USD')).rejects.toThrow(
        /unexpected shape/,
      )
    } finally {
      await empty.stop()
    }
  })
})
