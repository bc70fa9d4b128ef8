import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { wrapFetchWithPayment } from '@x402/fetch'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TOKENIZED_STOCKS } from '../../src/chain/tokenizedStocks.js'
import { loadConfig } from '../../src/config.js'
import { createFacilitator } from '../../src/payments/facilitator/createFacilitator.js'
import { errorOf } from '../helpers/errorOf.js'
import { eventually } from '../helpers/eventually.js'
import { type HttpFaultProxy, httpFaultProxy } from '../helpers/httpFaultProxy.js'
import { challengeOf, type Instance, useWorld } from '../helpers/serviceWorld.js'

// A settlement in flight while others' free, failing reads try to open the RPC's circuit. A remote
// facilitator's success carries no receipt, so the gate confirms it from the chain through the service's
// client, which is behind the breaker. Before the fix (found by the attack review), the circuit opened and
// the payer was charged for a call answered 503. The breaker now opens only if the RPC does not answer
// eth_blockNumber either (src/circuitBreaker.ts stillAnswers): the victim is served and charged once.
// Money read onchain, rows from the ledger.

const sw = useWorld()
const TIMEOUT_MS = 1_000
const COOL_DOWN_SEC = 5
const FUNDED = 1_000_000n
const PRICES_PATH = '/v1/prices?symbols=BTC'
const STOCK_TOKENS = Object.values(TOKENIZED_STOCKS).map((s) => s.token.slice(2).toLowerCase())
const isStockRead = (_path: string, body: string) => {
  const lower = body.toLowerCase()
  return STOCK_TOKENS.some((t) => lower.includes(t))
}
const quotePath = (i: number) => `/v1/stocks/price?sym=AAPLc&side=buy&amount=${2000 + i}`

let hosted: ReturnType<typeof serve>
let facilitatorUrl: string
let proxy: HttpFaultProxy
/** Run by the hosted facilitator after its settlement is mined, before it answers. */
let beforeAnswer: (() => Promise<void>) | undefined

beforeAll(async () => {
  proxy = await httpFaultProxy(sw.world.rpcUrl)
  // The facilitator reaches the devnet directly: its RPC is healthy throughout.
  const core = createFacilitator(loadConfig(sw.env))
  const app = new Hono()
  type Body = { paymentPayload: PaymentPayload; paymentRequirements: PaymentRequirements }
  app.post('/verify', async (c) => {
    const { paymentPayload, paymentRequirements } = await c.req.json<Body>()
    const verdict = await core.verify(paymentPayload, paymentRequirements)
    return c.json(verdict, verdict.isValid ? 200 : 400)
  })
  app.post('/settle', async (c) => {
    const { paymentPayload, paymentRequirements } = await c.req.json<Body>()
    const result = await core.settle(paymentPayload, paymentRequirements)
    await beforeAnswer?.()
    // The standard HTTP answer: no receipt.
    const { receipt: _receipt, ...answer } = result as typeof result & { receipt?: unknown }
    return c.json(answer, result.success ? 200 : 400)
  })
  app.get('/supported', async (c) => c.json(await core.getSupported()))
  hosted = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  facilitatorUrl = await new Promise((resolve) =>
    hosted.once('listening', () => resolve(`http://127.0.0.1:${(hosted.address() as AddressInfo).port}`)),
  )
}, 120_000)
afterAll(async () => {
  hosted?.close()
  await proxy?.close()
})

async function call(on: Instance, who: Awaited<ReturnType<typeof sw.freshWallet>>, path: string) {
  const res = await wrapFetchWithPayment(fetch, who.client)(`${on.url}${path}`)
  const text = await res.text()
  let code: string | undefined
  try {
    code = errorOf(JSON.parse(text))?.code
  } catch {
    code = undefined
  }
  return { status: res.status, code }
}

describe('a settlement in flight when the RPC circuit opens (remote facilitator)', () => {
  test('attack: failing reads sent while a settlement is in flight do not open the circuit while the RPC answers; the payer is served and charged once', async () => {
    const on = await sw.instance({
      RPC_URL: proxy.url,
      RPC_TIMEOUT_MS: String(TIMEOUT_MS),
      BREAKER_FAILURES: '3',
      BREAKER_COOLDOWN_SECONDS: String(COOL_DOWN_SEC),
      FACILITATOR_URL: facilitatorUrl,
    })
    expect(on.services.deps.facilitator.kind).toBe('remote')
    const price = BigInt((await challengeOf(`${on.url}${PRICES_PATH}`)).accepts[0]?.amount ?? 0)
    const victim = await sw.freshWallet(FUNDED)
    const attackers = await Promise.all(Array.from({ length: 6 }, () => sw.freshWallet(FUNDED)))

    // While the victim's transfer is mined and its answer not yet back, the attackers' quotes (whose reads
    // alone the RPC cannot answer in time) open the circuit. They pay nothing.
    let tripped: { status: number }[] = []
    let healedAt = -1
    beforeAnswer = async () => {
      beforeAnswer = undefined
      proxy.arm({ kind: 'latency', ms: 3 * TIMEOUT_MS }, isStockRead)
      tripped = await Promise.all(attackers.map((a, i) => call(on, a, quotePath(i))))
      proxy.heal()
      healedAt = proxy.requests
    }
    const sent = proxy.requests
    const outcome = await call(on, victim, PRICES_PATH)
    expect(tripped.map((t) => t.status >= 500)).toEqual(Array(6).fill(true))
    for (const a of attackers) expect(await sw.usdcBalance(a.account.address)).toBe(FUNDED)
    expect(proxy.requests).toBeGreaterThan(sent)
    // The breaker stayed closed (the RPC answered eth_blockNumber throughout): the confirmation asked the
    // RPC, the victim is served and charged the price once, its row settled and served.
    expect(proxy.requests).toBeGreaterThan(healedAt)
    expect(outcome.status).toBe(200)
    expect(FUNDED - (await sw.usdcBalance(victim.account.address))).toBe(price)
    const booked = await eventually(async () => {
      const rows = await on.services.deps.ledger.byPayer(victim.account.address)
      expect(rows.map((r) => ({ status: r.status, served: r.served, amount: r.amount }))).toEqual([
        { status: 'settled', served: true, amount: price },
      ])
      return rows
    })
    expect(booked).toHaveLength(1)
  }, 120_000)
})
