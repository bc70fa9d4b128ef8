import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { getCandles } from '../../src/market/candles/getCandles.js'
import { defineRoute } from '../../src/routes/route.js'
import { testApp } from '../helpers/testApp.js'

// An exchange that answers 404 to /products and 503 to everything else.
let exchange: Server
let exchangeUrl: string
beforeAll(async () => {
  exchange = createServer((req, res) => {
    res.writeHead(req.url === '/products' ? 404 : 503, { 'content-type': 'application/json' })
    res.end('{"message":"NotFound"}')
  })
  await new Promise<void>((done) => exchange.listen(0, '127.0.0.1', done))
  exchangeUrl = `http://127.0.0.1:${(exchange.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((done) => exchange.close(done))
})

/** A free route whose handler is a real market read, so its failure reaches the HTTP layer as a caller would see it. */
const probe = defineRoute({
  id: 'probeCandles',
  method: 'GET',
  path: '/v1/probe/candles',
  priceUsd: null,
  errors: ['upstream_not_found'],
  tier: 'free',
  summary: 'probe',
  description: 'probe',
  input: {},
  output: z.unknown(),
  handler: async (_input, ctx) =>
    getCandles(ctx.deps.market, { product: 'BTC-USD', quote: 'USD', days: 1 }, ctx.deps.clock()),
})

describe('upstream 404', () => {
  test('error: an upstream 404 that reaches a handler is a typed 404 naming the upstream, not a 500', async () => {
    const { app, services } = await testApp({ COINBASE_URL: exchangeUrl }, [probe])
    try {
      const res = await app.request('http://x/v1/probe/candles')
      expect(res.status).toBe(404)
      const body = (await res.json()) as { error: { code: string; message: string; details: unknown } }
      expect(body.error.code).toBe('upstream_not_found')
      expect(body.error.details).toEqual({ upstream: 'Coinbase Exchange' })
      // Our upstream's address is not the caller's business.
      expect(body.error.message).not.toContain(exchangeUrl)
    } finally {
      await services.close()
    }
  })

  test('error: any other upstream failure stays a 502', async () => {
    const { app, services } = await testApp({ COINBASE_URL: `${exchangeUrl}/down` }, [probe])
    try {
      const res = await app.request('http://x/v1/probe/candles')
      expect(res.status).toBe(502)
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('upstream_unavailable')
    } finally {
      await services.close()
    }
  })
})
