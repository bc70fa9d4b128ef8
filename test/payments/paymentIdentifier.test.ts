import { request as httpRequest } from 'node:http'
import { decodePaymentResponseHeader } from '@x402/core/http'
import type { PaymentPayload } from '@x402/core/types'
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
  PAYMENT_IDENTIFIER,
} from '@x402/extensions/payment-identifier'
import { wrapFetchWithPayment } from '@x402/fetch'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { usdToAtomic } from '../../src/payments/usdToAtomic.js'
import { buildBurnRoute } from '../../src/routes/tx/buildBurn.js'
import { eventually } from '../helpers/eventually.js'
import {
  challengeOf,
  encodePayment,
  type Instance,
  type payerClient,
  useInstance,
  useWorld,
} from '../helpers/serviceWorld.js'
import { testDatabase } from '../helpers/testDatabase.js'

// Idempotent retries with x402's payment-identifier extension (issue 24), on the devnet with the official
// client: the UTIL burn builder (a POST with a body), paid from fresh wallets so every charge is visible.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const sw = useWorld()
const svc = useInstance(sw)

const PATH = '/v1/tx/burn'
const PRICE = usdToAtomic(buildBurnRoute.priceUsd as number)
const OWNER = demoAccounts[1]?.address as `0x${string}`
const burnBody = (amount = '1000000000000000000') => JSON.stringify({ amount, owner: OWNER })
const post = (body: string, payment?: string): RequestInit => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    ...(payment === undefined ? {} : { 'PAYMENT-SIGNATURE': payment }),
  },
  body,
})

type Wallet = ReturnType<typeof payerClient>

/**
 * The official client as an agent configures it for idempotency: each payment gets `id` in the
 * payment-identifier extension the challenge declared (the package's own helper), and the payload it sent
 * is kept to send again, as a client retrying after a lost response does.
 */
function idempotentFetch(who: Wallet, id: () => string) {
  const sent: PaymentPayload[] = []
  who.client.onBeforePaymentCreation(async ({ paymentRequired }) => {
    paymentRequired.extensions ??= {}
    appendPaymentIdentifierToExtensions(paymentRequired.extensions, id())
  })
  who.client.onAfterPaymentCreation(async ({ paymentPayload }) => {
    sent.push(paymentPayload)
  })
  return { fetch: wrapFetchWithPayment(fetch, who.client), sent }
}

/** A payload signed by the official client for `url`, carrying `id` (or none). */
async function signed(who: Wallet, url: string, init: RequestInit, id?: string): Promise<PaymentPayload> {
  const challenge = await challengeOf(url, init)
  if (id !== undefined) {
    challenge.extensions ??= {}
    appendPaymentIdentifierToExtensions(challenge.extensions, id)
  }
  return who.client.createPaymentPayload(challenge)
}

const nonceOf = (p: PaymentPayload) => (p.payload.authorization as { nonce: string }).nonce.toLowerCase()

async function answerOf(res: Response) {
  return {
    status: res.status,
    body: await res.text(),
    receipt: res.headers.get('payment-response'),
    contentType: res.headers.get('content-type'),
  }
}

/** The payer's ledger rows, once every outcome is written (it is written just after the response). */
async function settledRows(instance: Instance, payerAddress: `0x${string}`, count: number) {
  return eventually(async () => {
    const rows = await instance.services.deps.ledger.byPayer(payerAddress)
    expect(rows.map((r) => r.status)).toEqual(Array.from({ length: count }, () => 'settled'))
    return rows
  })
}

describe('payment-identifier: retries served once, charged once', () => {
  test('error: a payment header that decodes to JSON null, or to a number, is a 402 payment_malformed, never a 500', async () => {
    for (const text of ['null', '7', '"x"']) {
      const res = await fetch(`${svc.url}${PATH}`, post(burnBody(), Buffer.from(text).toString('base64')))
      expect(res.status, text).toBe(402)
      expect(((await res.json()) as { refusal?: { code?: string } }).refusal?.code).toBe('payment_malformed')
    }
  })

  test('behavior: the challenge declares the official extension, not required, in the header and the body', async () => {
    const url = `${svc.url}${PATH}`
    const res = await fetch(url, post(burnBody()))
    const fromBody = (await res.json()) as { extensions: Record<string, unknown> }
    const fromHeader = await challengeOf(url, post(burnBody()))
    for (const extensions of [fromBody.extensions, fromHeader.extensions ?? {}]) {
      expect(extensions[PAYMENT_IDENTIFIER]).toMatchObject({ info: { required: false } })
    }
  })

  test('behavior: a builder call retried with the same id and payload gets the identical answer and is charged once', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const id = generatePaymentId()
    const client = idempotentFetch(who, () => id)
    const url = `${svc.url}${PATH}`
    const first = await answerOf(await client.fetch(url, post(burnBody())))
    expect(first.status, first.body).toBe(200)
    expect(client.sent).toHaveLength(1)
    const header = encodePayment(client.sent[0] as PaymentPayload)

    const retries = [await answerOf(await fetch(url, post(burnBody(), header)))]
    retries.push(await answerOf(await fetch(url, post(burnBody(), header))))
    for (const retry of retries) expect(retry).toEqual(first)
    const receipt = decodePaymentResponseHeader(first.receipt as string)
    expect(receipt).toMatchObject({ success: true, payer: who.account.address })

    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - PRICE)
    const rows = await settledRows(svc, who.account.address, 1)
    expect(rows[0]).toMatchObject({
      nonce: nonceOf(client.sent[0] as PaymentPayload),
      txHash: receipt.transaction,
    })
  })

  test('behavior: the response lost after the settlement (connection dropped) is served on retry from the store, charged once', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const url = `${svc.url}${PATH}`
    const payload = await signed(who, url, post(burnBody()), generatePaymentId('lost_'))
    const header = encodePayment(payload)

    // A raw request whose connection is dropped once the transfer is onchain: the client never reads a
    // byte of the answer (whether the server had written it yet or not).
    const req = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'PAYMENT-SIGNATURE': header },
    })
    req.on('response', (res) => res.destroy())
    req.on('error', () => {})
    req.end(burnBody())
    await eventually(async () => {
      expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - PRICE)
    })
    req.destroy()

    // Retried at once, as an agent does: the call may still be finishing (its outcome, its answer
    // stored), and then the answer is 409 payment_in_progress with Retry-After, never a second run.
    const retry = await eventually(async () => {
      const res = await fetch(url, post(burnBody(), header))
      const answer = await answerOf(res)
      if (answer.status === 409) {
        expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'payment_in_progress' } })
        expect(res.headers.get('retry-after')).toBe('1')
      }
      expect(answer.status, answer.body).toBe(200)
      return answer
    })
    const envelope = JSON.parse(retry.body) as { steps: unknown[]; action: { type: string } }
    expect(envelope.action.type).toBe('burn')
    expect(envelope.steps).toHaveLength(1)
    const receipt = decodePaymentResponseHeader(retry.receipt as string)
    // The stored answer is the first call's: its receipt names the one settlement, in the ledger.
    const rows = await settledRows(svc, who.account.address, 1)
    expect(rows[0]).toMatchObject({ nonce: nonceOf(payload), txHash: receipt.transaction, served: true })
    expect(await answerOf(await fetch(url, post(burnBody(), header)))).toEqual(retry)
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - PRICE)
  })

  test('error: the same id with another authorization or another request is 409 payment_identifier_conflict naming the field, nothing charged', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const url = `${svc.url}${PATH}`
    const id = generatePaymentId()
    const payload = await signed(who, url, post(burnBody()), id)
    const header = encodePayment(payload)
    const first = await answerOf(await fetch(url, post(burnBody(), header)))
    expect(first.status, first.body).toBe(200)
    await settledRows(svc, who.account.address, 1)

    // A new authorization under the same id, for the same request.
    const other = encodePayment(await signed(who, url, post(burnBody()), id))
    const byPayment = await fetch(url, post(burnBody(), other))
    expect(byPayment.status).toBe(409)
    expect(await byPayment.json()).toMatchObject({
      error: {
        code: 'payment_identifier_conflict',
        field: 'extensions.payment-identifier.info.id',
        details: { differs: 'payment' },
      },
    })
    // The same authorization for another request (another body).
    const byRequest = await fetch(url, post(burnBody('2000000000000000000'), header))
    expect(byRequest.status).toBe(409)
    expect(await byRequest.json()).toMatchObject({
      error: {
        code: 'payment_identifier_conflict',
        field: 'extensions.payment-identifier.info.id',
        details: { differs: 'request' },
      },
    })

    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - PRICE)
    await settledRows(svc, who.account.address, 1)
    // The id's answer is still the first call's.
    expect(await answerOf(await fetch(url, post(burnBody(), header)))).toEqual(first)
  })

  test('behavior: a failed call (400) stores nothing and charges nothing: its retry runs again', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const url = `${svc.url}${PATH}`
    const bad = JSON.stringify({ amount: 'lots', owner: OWNER })
    const header = encodePayment(await signed(who, url, post(bad), generatePaymentId()))
    for (let i = 0; i < 2; i++) {
      const res = await fetch(url, post(bad, header))
      expect(res.status).toBe(400)
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_input')
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toEqual([])
  })

  test('error: an id outside the extension’s rules is refused (402 payment_malformed naming the field), nothing charged', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const url = `${svc.url}${PATH}`
    const payload = await signed(who, url, post(burnBody()), generatePaymentId())
    const extension = payload.extensions?.[PAYMENT_IDENTIFIER] as { info: { id: string } }
    extension.info.id = 'short!'
    const res = await fetch(url, post(burnBody(), encodePayment(payload)))
    expect(res.status).toBe(402)
    const body = (await res.json()) as { refusal: { code: string; details: { field: string } } }
    expect(body.refusal).toMatchObject({
      code: 'payment_malformed',
      details: { field: 'extensions.payment-identifier.info.id' },
    })
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
  })

  test('behavior: without an id the spec’s rule stands: a retried builder call is charged again, a resent authorization is payment_replayed', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const url = `${svc.url}${PATH}`
    const payFetch = wrapFetchWithPayment(fetch, who.client)
    for (let i = 0; i < 2; i++) {
      const res = await payFetch(url, post(burnBody()))
      expect(res.status, await res.text()).toBe(200)
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - 2n * PRICE)
    await settledRows(svc, who.account.address, 2)

    const payload = await signed(who, url, post(burnBody()))
    // The client echoes the declaration, without an id of its own.
    expect(payload.extensions?.[PAYMENT_IDENTIFIER]).toMatchObject({ info: { required: false } })
    const echoed = payload.extensions?.[PAYMENT_IDENTIFIER] as { info?: { id?: string } } | undefined
    expect(echoed?.info?.id).toBeUndefined()
    const header = encodePayment(payload)
    expect((await fetch(url, post(burnBody(), header))).status).toBe(200)
    const resent = await fetch(url, post(burnBody(), header))
    expect(resent.status).toBe(402)
    expect(((await resent.json()) as { error: string }).error).toBe('payment_replayed')
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - 3n * PRICE)
  })
})

describe('payment-identifier across instances sharing Redis', () => {
  let a: Instance
  let b: Instance
  let database: Awaited<ReturnType<typeof testDatabase>>
  beforeAll(async () => {
    database = await testDatabase()
    const shared = { REDIS_URL, DATABASE_URL: database.url }
    a = await sw.instance(shared)
    b = await sw.instance(shared)
  }, 120_000)
  // The instances stop with the world's; their shared schema goes with this block.
  afterAll(async () => {
    await database?.drop()
  })

  test('behavior: the answer stored by one instance is the other’s; copies racing on both run the call once', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const path = `${PATH}`
    const payload = await signed(who, `${a.url}${path}`, post(burnBody()), generatePaymentId())
    const header = encodePayment(payload)
    const first = await answerOf(await fetch(`${a.url}${path}`, post(burnBody(), header)))
    expect(first.status, first.body).toBe(200)
    expect(await answerOf(await fetch(`${b.url}${path}`, post(burnBody(), header)))).toEqual(first)

    // Eight copies of another call at once, half on each instance: one runs it, the others get its
    // stored answer or 409 payment_in_progress, never a second run or a second charge.
    const racing = encodePayment(await signed(who, `${b.url}${path}`, post(burnBody()), generatePaymentId()))
    const answers = await Promise.all(
      Array.from({ length: 8 }, async (_, i) =>
        answerOf(await fetch(`${(i % 2 ? a : b).url}${path}`, post(burnBody(), racing))),
      ),
    )
    const served = answers.filter((r) => r.status === 200)
    expect(served.length).toBeGreaterThanOrEqual(1)
    for (const r of served) expect(r).toEqual(served[0])
    for (const r of answers.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(409)
      expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'payment_in_progress' } })
    }
    const after = await answerOf(await fetch(`${a.url}${path}`, post(burnBody(), racing)))
    expect(after).toEqual(served[0])

    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - 2n * PRICE)
    await settledRows(a, who.account.address, 2)
  })
})
