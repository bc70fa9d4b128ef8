import { readFileSync } from 'node:fs'
import { type Address, getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import type { SwapLiquiditySource } from '../../src/devnet/upstreams/swapLiquiditySource.js'
import { createZeroExApp, ZEROX_RATE_LIMIT } from '../../src/devnet/upstreams/zeroExApp.js'
import { createFetchJson } from '../../src/market/upstreams/fetchJson.js'
import { createWindowLimit } from '../../src/market/upstreams/windowLimit.js'
import { createZeroEx } from '../../src/market/upstreams/zeroEx.js'
import { startCaptureServer } from './captureServer.js'
import { loadContract, operationOf, requestProblems, responseProblems } from './openapiContract.js'

/**
 * The 0x Swap API v2 (AllowanceHolder) against its official OpenAPI (0xProject/0x-docs `fern/openapi.json`,
 * vendored with its provenance in test/fixtures/upstreams/0x): the simulator's answers validate against
 * the operations' schemas, the adapter's requests against their parameters, and the adapter reads the
 * official example answers.
 */
const doc = await loadContract('0x/openapi.allowance-holder.excerpt.json')
const PRICE = operationOf(doc, 'get', '/swap/allowance-holder/price')
const QUOTE = operationOf(doc, 'get', '/swap/allowance-holder/quote')
const example = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/upstreams/0x/${name}`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >

const { USDC, WETH } = BASE_ADDRESSES
const TAKER: Address = getAddress('0x2222222222222222222222222222222222222222')
const KEY = 'contract-test-key'
const liquidity: SwapLiquiditySource = {
  bestFill: async (sell, buy) =>
    sell === USDC && buy === WETH
      ? { venue: 'Uniswap_V3', sellToken: sell, buyToken: buy, amountOut: 4n * 10n ** 17n, uniswapFee: 500 }
      : null,
  block: async () => ({ number: 123n, timestamp: 1_795_000_000n }),
  gasPrice: async () => 10_000_000n,
  symbol: async (t) => (t === USDC ? 'USDC' : 'WETH'),
  erc20State: async () => ({ balance: 10n ** 12n, allowance: 10n ** 12n }),
  nativeBalance: async () => 10n ** 18n,
  estimateGas: async () => 180_000n,
}
const ROOMY = { max: 1000, windowMs: 1000 }
const HEADERS = { '0x-api-key': KEY, '0x-version': 'v2' }
const query = { chainId: '8453', sellToken: USDC, buyToken: WETH, sellAmount: '1000000000', taker: TAKER }

describe('0x simulator answers as the contract', () => {
  const app = createZeroExApp({ liquidity, apiKey: KEY, rateLimit: ROOMY })
  const get = async (path: string, q: Record<string, string>, headers: Record<string, string> = HEADERS) => {
    const res = await app.request(`${path}?${new URLSearchParams(q)}`, { headers })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }

  test('contract: price and quote (liquidity, and none) validate against the 200 schemas', async () => {
    const price = await get('/swap/allowance-holder/price', query)
    expect(price.status).toBe(200)
    expect(responseProblems(PRICE, 200, price.body)).toEqual([])
    const quote = await get('/swap/allowance-holder/quote', query)
    expect(quote.status).toBe(200)
    expect(responseProblems(QUOTE, 200, quote.body)).toEqual([])
    const none = await get('/swap/allowance-holder/price', { ...query, buyToken: BASE_ADDRESSES.cbBTC })
    expect(none.body.liquidityAvailable).toBe(false)
    expect(responseProblems(PRICE, 200, none.body)).toEqual([])
    // The check bites: a price without the required `mode`, or with an amount as a number, is refused.
    const { mode: _mode, ...withoutMode } = price.body
    expect(responseProblems(PRICE, 200, withoutMode)).not.toEqual([])
    expect(responseProblems(PRICE, 200, { ...price.body, buyAmount: 4e17 })).not.toEqual([])
  })

  test('contract: bad parameters answer the 400 INPUT_INVALID schema, naming each field', async () => {
    const bad = await get('/swap/allowance-holder/quote', { ...query, sellAmount: 'x', slippageBps: '10001' })
    expect(bad.status).toBe(400)
    expect(responseProblems(QUOTE, 400, bad.body)).toEqual([])
    expect(bad.body.name).toBe('INPUT_INVALID')
  })

  test('gate: a missing or wrong 0x-api-key is 401', async () => {
    expect((await get('/swap/allowance-holder/price', query, { '0x-version': 'v2' })).status).toBe(401)
    expect(
      (await get('/swap/allowance-holder/price', query, { ...HEADERS, '0x-api-key': 'other' })).status,
    ).toBe(401)
  })

  test('gate: past the free tier’s 5 requests in a second the answer is 429', async () => {
    const limited = createZeroExApp({
      liquidity,
      apiKey: KEY,
      rateLimit: { ...ZEROX_RATE_LIMIT, now: () => 0 },
    })
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      const res = await limited.request(`/swap/allowance-holder/price?${new URLSearchParams(query)}`, {
        headers: HEADERS,
      })
      statuses.push(res.status)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
  })
})

describe('0x adapter speaks the contract', () => {
  const priceExample = example('allowance-holder.price.200.openapi-example.json')
  let server: Awaited<ReturnType<typeof startCaptureServer>>
  beforeAll(async () => {
    server = await startCaptureServer((url) => ({
      body: url.pathname.endsWith('/price')
        ? priceExample
        : {
            ...priceExample,
            transaction: { to: TAKER, data: '0x2213bc0b00', gas: '1', gasPrice: '1', value: '0' },
          },
    }))
  })
  afterAll(() => server.stop())

  test('contract: its requests carry the required headers and only declared, valid parameters', async () => {
    const zeroEx = createZeroEx(server.url, KEY, createFetchJson())
    const ask = {
      sellToken: getAddress(priceExample.sellToken as string),
      buyToken: getAddress(priceExample.buyToken as string),
      sellAmount: BigInt(priceExample.sellAmount as string),
      taker: TAKER,
      slippageBps: 50,
    }
    await zeroEx.quote(ask)
    await zeroEx.firmQuote({ ...ask, txOrigin: TAKER })
    expect(server.requests.map((r) => r.url.pathname)).toEqual([
      '/swap/allowance-holder/price',
      '/swap/allowance-holder/quote',
    ])
    const [price, quote] = server.requests
    expect(requestProblems(PRICE, price?.url as URL, price?.headers as Headers)).toEqual([])
    expect(requestProblems(QUOTE, quote?.url as URL, quote?.headers as Headers)).toEqual([])
    // slippageBps is set explicitly: 0x's default (100) is not what a caller asked for.
    expect(price?.url.searchParams.get('slippageBps')).toBe('50')
  })

  test('contract: the official price example reads to its own figures', async () => {
    const zeroEx = createZeroEx(server.url, KEY, createFetchJson())
    const quote = await zeroEx.quote({
      sellToken: getAddress(priceExample.sellToken as string),
      buyToken: getAddress(priceExample.buyToken as string),
      sellAmount: BigInt(priceExample.sellAmount as string),
      taker: TAKER,
      slippageBps: 100,
    })
    expect(quote).toMatchObject({
      blockNumber: 20_114_676n,
      buyAmount: 100_032_748n,
      minBuyAmount: 99_032_421n,
      gasEstimate: 288_095n,
      gasPriceWei: 7_062_490_000n,
      networkFeeWei: 2_034_668_056_550_000n,
      route: [{ source: 'SolidlyV3', proportionBps: 10_000 }],
    })
  })

  test('limits: a burst of twelve distinct prices against the rate-limited simulator draws no 429', async () => {
    const sim = createZeroExApp({ liquidity, apiKey: KEY })
    const { serve } = await import('@hono/node-server')
    const s = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const srv = serve({ fetch: sim.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(srv))
    })
    const port = (s.address() as { port: number }).port
    try {
      // A wider margin than the service's 250 ms: this machine's load must not make the test flaky.
      const limit = createWindowLimit({ upstream: '0x Swap API', max: 5, windowMs: 1000, marginMs: 500 })
      const zeroEx = createZeroEx(`http://127.0.0.1:${port}`, KEY, createFetchJson(), limit)
      const quotes = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          zeroEx.quote({
            sellToken: USDC,
            buyToken: WETH,
            sellAmount: 1_000_000n + BigInt(i),
            taker: TAKER,
            slippageBps: 50,
          }),
        ),
      )
      expect(quotes.every((q) => q !== null && q.buyAmount > 0n)).toBe(true)
    } finally {
      s.close()
    }
  })
})
