import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { wrapFetchWithPayment } from '@x402/fetch'
import { Hono } from 'hono'
import { generatePrivateKey } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { createFacilitator } from '../../src/payments/createFacilitator.js'
import {
  challengeOf,
  encodePayment,
  type Instance,
  payer,
  payerClient,
  type ServiceWorld,
  signChallenge,
  startServiceWorld,
} from '../helpers/serviceWorld.js'

const TOKEN = 'Bearer facilitator-test-token'
let sw: ServiceWorld
let hosted: ReturnType<typeof serve>
let facilitatorUrl: string
const calls: string[] = []

/**
 * A hosted facilitator speaking the standard HTTP API (POST /verify, POST /settle, GET /supported),
 * requiring a bearer token; inside it is x402's facilitator core with its own relayer key.
 */
function startHostedFacilitator(rpcEnv: NodeJS.ProcessEnv): Promise<string> {
  const core = createFacilitator(loadConfig(rpcEnv))
  const app = new Hono()
  app.use('*', async (c, next) => {
    calls.push(`${c.req.method} ${c.req.path}`)
    if (c.req.header('authorization') !== TOKEN) return c.json({ error: 'unauthorized' }, 401)
    await next()
    return undefined
  })
  type Body = { paymentPayload: PaymentPayload; paymentRequirements: PaymentRequirements }
  app.post('/verify', async (c) => {
    const { paymentPayload, paymentRequirements } = await c.req.json<Body>()
    const verdict = await core.verify(paymentPayload, paymentRequirements)
    return c.json(verdict, verdict.isValid ? 200 : 400)
  })
  app.post('/settle', async (c) => {
    const { paymentPayload, paymentRequirements } = await c.req.json<Body>()
    const result = await core.settle(paymentPayload, paymentRequirements)
    return c.json(result, result.success ? 200 : 400)
  })
  app.get('/supported', async (c) => c.json(await core.getSupported()))
  hosted = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  return new Promise((resolve) =>
    hosted.once('listening', () => resolve(`http://127.0.0.1:${(hosted.address() as AddressInfo).port}`)),
  )
}

beforeAll(async () => {
  sw = await startServiceWorld()
  facilitatorUrl = await startHostedFacilitator(sw.env)
}, 120_000)
afterAll(async () => {
  hosted?.close()
  await sw?.stop()
})

const remote = (headers: Record<string, string>): Promise<Instance> =>
  sw.instance({ FACILITATOR_URL: facilitatorUrl, FACILITATOR_HEADERS: JSON.stringify(headers) })

describe('remote facilitator', () => {
  test('behavior: with FACILITATOR_URL and its auth header, payments settle through the hosted facilitator', async () => {
    const svc = await remote({ Authorization: TOKEN })
    expect(svc.services.deps.facilitator.kind).toBe('remote')
    const who = payer(2)
    const before = await sw.usdcBalance(who.account.address)
    const res = await wrapFetchWithPayment(fetch, who.client)(`${svc.url}/v1/prices?symbols=BTC`)
    expect(res.status).toBe(200)
    expect(calls).toContain('POST /settle')
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n)

    // A refusal from the facilitator is mapped to our code, like the built-in one's.
    const broke = payerClient(generatePrivateKey())
    const path = '/v1/prices?symbols=BTC'
    const refused = await fetch(`${svc.url}${path}`, {
      headers: {
        'PAYMENT-SIGNATURE': encodePayment(
          await signChallenge(broke, await challengeOf(`${svc.url}${path}`)),
        ),
      },
    })
    expect(refused.status).toBe(402)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      'payment_insufficient_funds',
    )
  })

  test('error: an unreachable or refusing facilitator is a 503 that charges nothing, and the row waits for the chain', async () => {
    const svc = await remote({ Authorization: 'Bearer wrong' })
    const who = payer(3)
    const path = '/v1/prices?symbols=ETH'
    const before = await sw.usdcBalance(who.account.address)
    const res = await fetch(`${svc.url}${path}`, {
      headers: {
        'PAYMENT-SIGNATURE': encodePayment(await signChallenge(who, await challengeOf(`${svc.url}${path}`))),
      },
    })
    expect(res.status).toBe(503)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
      'payment_facilitator_unavailable',
    )
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
    const [row] = await svc.services.deps.ledger.byPayer(who.account.address)
    expect(row?.status).toBe('pending')
    // The reconciler asks the chain: the authorization is unused and still valid, so it stays pending.
    await svc.services.reconcile()
    expect((await svc.services.deps.ledger.byPayer(who.account.address))[0]?.status).toBe('pending')
  })
})
