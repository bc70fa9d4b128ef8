import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { getCandles } from '../src/market/candles/getCandles.js'
import { getCandlesRoute } from '../src/routes/candles/getCandles.js'
import { defineRoute, type HandlerContext, type Route } from '../src/routes/route.js'
import { testApp } from './helpers/testApp.js'

/**
 * A handler answering a code its route does not list is logged `undeclared_error_code` at error level (the
 * answer itself is unchanged), so a list that falls behind its code path shows in the logs. The path is a
 * real one: GET /v1/candles's read against an exchange that answers 404, which reaches the caller as
 * `upstream_not_found` (test/market/upstreamNotFound.test.ts).
 */
let exchange: Server
let exchangeUrl: string
beforeAll(async () => {
  exchange = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end('{"message":"NotFound"}')
  })
  await new Promise<void>((done) => exchange.listen(0, '127.0.0.1', done))
  exchangeUrl = `http://127.0.0.1:${(exchange.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((done) => exchange.close(done))
})

/** The same read as GET /v1/candles, on a route that lists none of its codes. */
const unlisted = defineRoute({
  id: 'probeCandles',
  method: 'GET',
  path: '/v1/probe/candles',
  priceUsd: null,
  errors: [],
  tier: 'free',
  summary: 'probe',
  description: 'probe',
  input: {},
  output: z.unknown(),
  handler: async (_input, ctx) =>
    getCandles(ctx.deps.market, { product: 'BTC-USD', quote: 'USD', days: 1 }, ctx.deps.clock()),
})

/** Runs the route as the router does, with a logger that keeps what it writes. */
async function runLogged(route: Route, query: Record<string, string>) {
  const lines: Record<string, unknown>[] = []
  const logger = pino({ level: 'error' }, { write: (line: string) => lines.push(JSON.parse(line)) })
  const { deps, services } = await testApp({ COINBASE_URL: exchangeUrl })
  const ctx: HandlerContext = { deps, routes: [route], requestId: 'test', logger }
  try {
    const error = await route.run({ params: {}, query, body: undefined }, ctx).then(
      () => undefined,
      (err: unknown) => err as { code?: string },
    )
    return { error, lines }
  } finally {
    await services.close()
  }
}

describe('undeclared error codes', () => {
  test('error: a code the route does not list is logged undeclared_error_code, and still answered', async () => {
    const { error, lines } = await runLogged(unlisted, {})
    expect(error?.code).toBe('upstream_not_found')
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: 'undeclared_error_code',
        route: 'probeCandles',
        code: 'upstream_not_found',
      }),
    )
  })

  test('behavior: GET /v1/candles lists the code its read answers, so nothing is logged', async () => {
    const { error, lines } = await runLogged(getCandlesRoute, { product: 'BTC-USD', days: '1' })
    expect(error?.code).toBe('upstream_not_found')
    expect(lines).toEqual([])
  })
})
