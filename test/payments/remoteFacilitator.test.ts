import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { decodePaymentResponseHeader } from '@x402/core/http'
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { wrapFetchWithPayment } from '@x402/fetch'
import { type Context, Hono } from 'hono'
import type { Hex } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { createFacilitator } from '../../src/payments/facilitator/createFacilitator.js'
import { errorOf } from '../helpers/errorOf.js'
import { eventually } from '../helpers/eventually.js'
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
/** The /settle requests the pending-first facilitator got, per authorization nonce. */
const settlesOf = new Map<string, number>()
let sw: ServiceWorld
let hosted: ReturnType<typeof serve>
let facilitatorUrl: string
const calls: string[] = []
/** The deadlines of the settlements the service is waiting for; the slow facilitator ends them. */
const deadlines: AbortController[] = []
const callerGivesUp = () => {
  for (const d of deadlines.splice(0)) d.abort()
}
const endedByTheFacilitator = (): AbortSignal => {
  const deadline = new AbortController()
  deadlines.push(deadline)
  return deadline.signal
}

/**
 * A hosted facilitator speaking the standard HTTP API (POST /verify, POST /settle, GET /supported),
 * requiring a bearer token; inside it is x402's facilitator core with its own relayer key.
 */
/** A settle response's wire fields (the built-in facilitator also hands its caller the receipt: bigints). */
function wire<T extends { receipt?: unknown }>(result: T): Omit<T, 'receipt'> {
  const { receipt: _receipt, ...fields } = result
  return fields
}

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
    const result = wire(await core.settle(paymentPayload, paymentRequirements))
    return c.json(result, result.success ? 200 : 400)
  })
  app.get('/supported', async (c) => c.json(await core.getSupported()))
  // It fails in a way that may follow a broadcast, without a transaction hash (it did nothing here).
  app.post('/generic/settle', (c) =>
    c.json(
      {
        success: false,
        errorReason: 'invalid_exact_evm_transaction_failed',
        transaction: '',
        network: 'eip155:8453',
      },
      400,
    ),
  )
  // Someone else's copy of the authorization landed first: the money moved, the facilitator says "used".
  app.post('/copy/settle', async (c) => {
    const { paymentPayload, paymentRequirements } = await c.req.json<Body>()
    await core.settle(paymentPayload, paymentRequirements)
    return c.json(
      {
        success: false,
        errorReason: 'invalid_exact_evm_nonce_already_used',
        transaction: '',
        network: 'eip155:8453',
      },
      400,
    )
  })
  // The same facilitator behind a slow link: it settles, then answers after the caller gave up (its
  // deadline is ended here, once the settlement is broadcast, instead of waiting it out on the wall clock).
  app.post('/slow/settle', async (c) => {
    const { paymentPayload, paymentRequirements } = await c.req.json<Body>()
    const result = wire(await core.settle(paymentPayload, paymentRequirements))
    callerGivesUp()
    return c.json(result, result.success ? 200 : 400)
  })
  // A facilitator with a pending-settlement store (as @x402/core's mechanisms keep): its first answer is
  // `settlement_pending` with the broadcast hash; asked again for the same payload it answers from the
  // transaction it sent, broadcasting nothing. `/pending-refuses` answers the retry with a refusal instead.
  const sent = new Map<string, Omit<Awaited<ReturnType<typeof core.settle>>, 'receipt'>>()
  const pendingFirst = (retry: 'from_store' | 'refuses') => async (c: Context) => {
    const { paymentPayload, paymentRequirements } = await c.req.json<Body>()
    const nonce = String(
      (paymentPayload.payload as { authorization?: { nonce?: string } }).authorization?.nonce,
    )
    settlesOf.set(nonce, (settlesOf.get(nonce) ?? 0) + 1)
    const known = sent.get(nonce)
    if (known === undefined) {
      const result = wire(await core.settle(paymentPayload, paymentRequirements))
      sent.set(nonce, result)
      return c.json({ ...result, success: false, errorReason: 'settlement_pending' }, 400)
    }
    if (retry === 'refuses')
      return c.json({ ...known, success: false, errorReason: 'invalid_exact_evm_nonce_already_used' }, 400)
    return c.json(known, 200)
  }
  app.post('/pending/settle', pendingFirst('from_store'))
  app.post('/pending-refuses/settle', pendingFirst('refuses'))
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

/**
 * One paid call through the hosted facilitator at `route` (its path prefix), from demo payer `payerIndex`:
 * the instance, the payer, its USDC before, the payload sent and the answer with its decoded receipt.
 */
async function payThrough(route: string, payerIndex: number, path: string, env: NodeJS.ProcessEnv = {}) {
  const svc = await sw.instance({
    FACILITATOR_URL: `${facilitatorUrl}/${route}`,
    FACILITATOR_HEADERS: JSON.stringify({ Authorization: TOKEN }),
    ...env,
  })
  const who = payer(payerIndex)
  const before = await sw.usdcBalance(who.account.address)
  const payload = await signChallenge(who, await challengeOf(`${svc.url}${path}`))
  const res = await fetch(`${svc.url}${path}`, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
  expect(res.status).toBe(200)
  const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') as string)
  const nonce = (payload.payload as { authorization: { nonce: string } }).authorization.nonce
  return { svc, who, before, receipt, nonce }
}

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
    expect(errorOf(await refused.json())?.code).toBe('payment_insufficient_funds')
  })

  test('error: a facilitator that refuses the request (401) is a 503 that charges nothing; the authorization stays usable', async () => {
    const svc = await remote({ Authorization: 'Bearer wrong' })
    const who = payer(3)
    const path = '/v1/prices?symbols=ETH'
    const before = await sw.usdcBalance(who.account.address)
    const payload = await signChallenge(who, await challengeOf(`${svc.url}${path}`))
    const res = await fetch(`${svc.url}${path}`, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
    expect(res.status).toBe(503)
    expect(errorOf(await res.json())?.code).toBe('payment_facilitator_unavailable')
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
    // Nothing can have been broadcast: the row fails, the claim and the funds are released.
    const [row] = await svc.services.deps.ledger.byPayer(who.account.address)
    expect(row).toMatchObject({ status: 'failed', served: false })
    const good = await remote({ Authorization: TOKEN })
    const retried = await fetch(`${good.url}${path}`, {
      headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) },
    })
    expect(retried.status).toBe(200)
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n)
  })

  test('behavior: a facilitator that settles but answers too late: the caller is served with a pending receipt, and the chain settles the row', async () => {
    const svc = await sw.instance(
      {
        FACILITATOR_URL: `${facilitatorUrl}/slow`,
        FACILITATOR_HEADERS: JSON.stringify({ Authorization: TOKEN }),
        RECONCILE_INTERVAL_MS: '600000',
      },
      { settleDeadline: endedByTheFacilitator },
    )
    const who = payer(4)
    const path = '/v1/prices?symbols=BTC'
    const before = await sw.usdcBalance(who.account.address)
    const payload = await signChallenge(who, await challengeOf(`${svc.url}${path}`))
    const res = await fetch(`${svc.url}${path}`, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
    // The truth: served, outcome not known yet. Never "nothing was charged" for money that may move.
    expect(res.status).toBe(200)
    const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') as string)
    expect(receipt).toMatchObject({ success: false, errorReason: 'settlement_pending', transaction: '' })
    await eventually(async () => {
      expect((await svc.services.deps.ledger.byPayer(who.account.address)).at(-1)).toMatchObject({
        status: 'pending',
        served: true,
      })
    })
    // The settlement lands (the facilitator did broadcast): the reconciler finds it by its events.
    await eventually(async () => expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n))
    await svc.services.reconcile()
    const row = (await svc.services.deps.ledger.byPayer(who.account.address)).at(-1)
    expect(row).toMatchObject({ status: 'settled', served: true })
    expect(row?.txHash).toMatch(/^0x[0-9a-f]{64}$/)
    const mined = await sw.chain.getTransactionReceipt({ hash: row?.txHash as `0x${string}` })
    expect(mined.status).toBe('success')
  })

  test('error: an ambiguous settlement failure is not served (503 payment_settlement_unknown) and its row waits for the chain', async () => {
    const svc = await sw.instance({
      FACILITATOR_URL: `${facilitatorUrl}/generic`,
      FACILITATOR_HEADERS: JSON.stringify({ Authorization: TOKEN }),
      RECONCILE_INTERVAL_MS: '600000',
    })
    const who = payer(5)
    const path = '/v1/prices?symbols=BTC'
    const before = await sw.usdcBalance(who.account.address)
    const payload = await signChallenge(who, await challengeOf(`${svc.url}${path}`))
    const res = await fetch(`${svc.url}${path}`, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
    expect(res.status).toBe(503)
    expect(errorOf(await res.json())?.code).toBe('payment_settlement_unknown')
    expect(res.headers.get('payment-response')).toBeNull()
    const rows = () => svc.services.deps.ledger.byPayer(who.account.address)
    expect((await rows()).at(-1)).toMatchObject({ status: 'pending', served: false })
    await svc.services.reconcile()
    expect((await rows()).at(-1)).toMatchObject({ status: 'pending', served: false })
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
    // The authorization may still land: it is not accepted again.
    const again = await fetch(`${svc.url}${path}`, {
      headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) },
    })
    expect(errorOf(await again.json())?.code).toBe('payment_replayed')
  })

  test('behavior: a facilitator answering settlement_pending with its transaction is asked once more with the same payload (as @x402/core 2.24+ does): its answer from the transaction it sent settles the call, charged once', async () => {
    const { svc, who, before, receipt, nonce } = await payThrough('pending', 7, '/v1/prices?symbols=BTC')
    expect(receipt).toMatchObject({ success: true })
    expect((await sw.chain.getTransactionReceipt({ hash: receipt.transaction as Hex })).status).toBe(
      'success',
    )
    expect(settlesOf.get(nonce)).toBe(2)
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n)
    await eventually(async () =>
      expect((await svc.services.deps.ledger.byPayer(who.account.address)).at(-1)).toMatchObject({
        status: 'settled',
        served: true,
        txHash: receipt.transaction,
      }),
    )
  })

  test('attack: a retry answered with a refusal after settlement_pending is not a refusal of money that moved: served pending with the first transaction, settled from the chain, charged once', async () => {
    const { svc, who, before, receipt, nonce } = await payThrough(
      'pending-refuses',
      8,
      '/v1/prices?symbols=ETH',
      {
        RECONCILE_INTERVAL_MS: '600000',
      },
    )
    expect(receipt).toMatchObject({ success: false, errorReason: 'settlement_pending' })
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/)
    expect(settlesOf.get(nonce)).toBe(2)
    await svc.services.reconcile()
    expect((await svc.services.deps.ledger.byPayer(who.account.address)).at(-1)).toMatchObject({
      status: 'settled',
      served: true,
      txHash: receipt.transaction,
    })
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n)
  })

  test('behavior: a refusal saying "already used" is checked against the chain: a copy that paid us still serves the call', async () => {
    const { svc, who, before, receipt } = await payThrough('copy', 6, '/v1/prices?symbols=ETH')
    expect(receipt.success).toBe(true)
    expect(
      (await sw.chain.getTransactionReceipt({ hash: receipt.transaction as `0x${string}` })).status,
    ).toBe('success')
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n)
    await eventually(async () =>
      expect((await svc.services.deps.ledger.byPayer(who.account.address)).at(-1)).toMatchObject({
        status: 'settled',
        txHash: receipt.transaction,
      }),
    )
  })
})
