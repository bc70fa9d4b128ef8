import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createApp } from '../../src/app.js'
import { fastPathServer } from '../../src/http/fastPathServer.js'
import { createHttpService } from '../../src/httpService.js'
import { routeTable } from '../../src/routes/table.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// The unpaid fast path (src/http/unpaidFastPath.ts) answers 402s without the framework. It must answer
// exactly what the app answers: both are served here side by side on one instance's services, at a
// frozen clock (a challenge's quote names its second), and compared byte for byte on every priced route.

const sw = useWorld()
const FROZEN_MS = Date.parse('2026-11-26T12:00:00Z')
const svc = useInstance(sw, {}, { clock: () => FROZEN_MS })
const limited = useInstance(sw, { RATE_LIMIT_UNPAID: '3' })

let fastUrl: string
let appUrl: string
let handled = 0
const servers: ServerType[] = []

async function listen(server: ServerType): Promise<string> {
  servers.push(server)
  await new Promise((r) => server.once('listening', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

beforeAll(async () => {
  const deps = svc.services.deps
  const service = createHttpService({ deps })
  const counting = fastPathServer(async (req, res) => {
    const answered = await service.fastPath(req, res)
    if (answered) handled++
    return answered
  })
  fastUrl = await listen(
    serve({ fetch: service.app.fetch, createServer: counting, port: 0, hostname: '127.0.0.1' }),
  )
  appUrl = await listen(serve({ fetch: createApp({ deps }).fetch, port: 0, hostname: '127.0.0.1' }))
})

afterAll(() => {
  for (const s of servers) s.close()
})

/** Everything but what differs by connection or by the moment the response was written. */
async function seen(res: Response) {
  const headers = Object.fromEntries(
    [...res.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)),
  )
  return { status: res.status, headers, body: await res.text() }
}

const concrete = (path: string) =>
  path.replace(/\{[A-Za-z0-9_]+\}/g, '0x4200000000000000000000000000000000000006')

describe('unpaid fast path', () => {
  const priced = routeTable.filter((r) => r.priceUsd !== null)

  test('behavior: every priced route answers an unpaid request (GET, POST, HEAD) exactly as the app does, and the fast path answered each', async () => {
    expect(priced.length).toBeGreaterThan(40)
    const before = handled
    let sent = 0
    for (const route of priced) {
      const path = `${concrete(route.path)}${route.method === 'GET' ? '?symbols=ETH&limit=5' : ''}`
      const methods = route.method === 'GET' ? ['GET', 'HEAD'] : ['POST']
      for (const method of methods) {
        const init = {
          method,
          headers: { 'X-Request-Id': `fast-path-${route.id}`, 'Content-Type': 'application/json' },
          ...(method === 'POST' ? { body: '{"not":"read"}' } : {}),
        }
        const [fast, app] = await Promise.all([
          fetch(`${fastUrl}${path}`, init),
          fetch(`${appUrl}${path}`, init),
        ])
        const [a, b] = await Promise.all([seen(fast), seen(app)])
        expect(a.status, `${method} ${path}`).toBe(402)
        expect(a, `${method} ${path}`).toEqual(b)
        sent++
      }
    }
    expect(handled - before).toBe(sent)
  })

  test('behavior: what the fast path leaves to the app (a payment header, a ref, an encoded path, a free route, OPTIONS) the app answers, and the fast path did not', async () => {
    const before = handled
    const paid = await fetch(`${fastUrl}/v1/prices?symbols=ETH`, {
      headers: { 'PAYMENT-SIGNATURE': 'bm90IGEgcGF5bWVudA==' },
    })
    expect(paid.status).toBe(402)
    expect(((await paid.json()) as { error: string }).error).toBe('payment_malformed')
    // Unpaid, a malformed ref is ignored by the challenge (it is refused once a payment carries it).
    const badRef = await fetch(`${fastUrl}/v1/prices?symbols=ETH&ref=nope`)
    expect(badRef.status).toBe(402)
    await badRef.body?.cancel()
    const encoded = await fetch(`${fastUrl}/v1/prices%3Fx?symbols=ETH`)
    expect(encoded.status).toBe(404)
    await encoded.body?.cancel()
    const preflight = await fetch(`${fastUrl}/v1/prices`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' },
    })
    expect(preflight.status).toBe(204)
    const free = routeTable.find((r) => r.priceUsd === null && r.method === 'GET' && !r.path.includes('{'))
    expect(free).toBeDefined()
    const freeAnswer = await fetch(`${fastUrl}${free?.path}`)
    expect(freeAnswer.status).not.toBe(402)
    await freeAnswer.body?.cancel()
    expect(handled).toBe(before)
  })

  test('attack: request targets the app reads differently (a fragment, an encoded ref key, a Host it refuses) are left to the app, and answered as the app answers them', async () => {
    /** A raw request (no client-side URL normalization): status and body. */
    const raw = (base: string, path: string, host?: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(base)
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path,
            method: 'GET',
            headers: host === undefined ? {} : { host },
          },
          (res) => {
            let body = ''
            res.setEncoding('utf8')
            res.on('data', (c) => {
              body += c
            })
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
          },
        )
        req.on('error', reject)
        req.end()
      })
    const before = handled
    const ref = '0x4200000000000000000000000000000000000006'
    for (const [path, host] of [
      ['/v1/ta/scan#x', undefined],
      ['/v1/ta/#x', undefined],
      [`/v1/prices?symbols=ETH&re%66=${ref}`, undefined],
      ['/v1/prices?symbols=ETH', 'x/y'],
    ] as const) {
      const [fast, app] = await Promise.all([raw(fastUrl, path, host), raw(appUrl, path, host)])
      expect({ path, ...fast }).toEqual({ path, ...app })
    }
    expect(handled).toBe(before)
  })

  test('attack: the unpaid ceiling counts a fast-path 402 once, and past it the app answers 429 with Retry-After without counting again', async () => {
    const url = `${limited.url}/v1/prices?symbols=ETH`
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) {
      const res = await fetch(url)
      statuses.push(res.status)
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
      await res.body?.cancel()
    }
    expect(statuses).toEqual([402, 402, 402, 429, 429])
  })
})
