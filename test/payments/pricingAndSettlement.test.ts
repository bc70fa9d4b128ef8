import { decodePaymentResponseHeader } from '@x402/core/http'
import { wrapFetchWithPayment } from '@x402/fetch'
import { createTestClient, http } from 'viem'
import { describe, expect, test } from 'vitest'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { errorOf } from '../helpers/errorOf.js'
import { eventually } from '../helpers/eventually.js'
import { challengeOf, encodePayment, payer, signChallenge, useWorld } from '../helpers/serviceWorld.js'
import { withinOneWindow } from '../helpers/withinOneWindow.js'

const sw = useWorld()
const payTo = demoAccounts[9]?.address as `0x${string}`

const ip = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`

describe('surge pricing', () => {
  test('behavior: admitted paid calls raise surge; a payment made within its quote is honoured after surge moved', async () => {
    // Capacity 2 rps: surge starts above 1 rps and caps at 2 rps, i.e. 20 admitted calls in 10 s. The
    // instance's clock is frozen, so however slowly this machine runs them, they fall in one window.
    const frozen = Date.now()
    const svc = await sw.instance({ SURGE_CAPACITY_RPS: '2' }, { clock: () => frozen })
    const url = `${svc.url}/v1/prices?symbols=BTC`
    const who = payer(2)
    const quiet = await challengeOf(url)
    expect(quiet.accepts[0]?.amount).toBe('1000')
    const quoted = await signChallenge(who, quiet)
    // The client echoes the challenge's objects by reference: copy before editing.
    const stripped = structuredClone(await signChallenge(who, quiet))
    delete (stripped.accepted.extra as Record<string, unknown>).quote

    // Unpaid probes are not work: forty of them leave the price alone.
    await Promise.all(Array.from({ length: 40 }, () => fetch(url).then((r) => r.body?.cancel())))
    expect((await challengeOf(url)).accepts[0]?.amount).toBe('1000')

    // Twenty paid calls are: from different payers, each paying what its own challenge says.
    const payers = [3, 4, 5, 6].map(payer)
    const paid = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        wrapFetchWithPayment(
          fetch,
          (payers[i % 4] as ReturnType<typeof payer>).client,
        )(url).then(async (r) => {
          await r.body?.cancel()
          return r.status
        }),
      ),
    )
    expect(paid).toEqual(Array(20).fill(200))
    const busy = await challengeOf(url)
    expect(busy.accepts[0]?.amount).toBe('2000')
    const catalog = (await (await fetch(`${svc.url}/v1`)).json()) as {
      surge: { multiplier: number; cap: number }
      endpoints: { id: string; priceUsd: number; currentPriceUsd: number }[]
    }
    expect(catalog.surge).toMatchObject({ multiplier: 2, cap: 2 })
    expect(catalog.endpoints.find((e) => e.id === 'getPrices')).toMatchObject({
      priceUsd: 0.001,
      currentPriceUsd: 0.002,
    })

    const before = await sw.usdcBalance(who.account.address)
    const honoured = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': encodePayment(quoted) } })
    expect(honoured.status).toBe(200)
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n)

    // Without the signed quote, the old amount is simply too little now.
    const late = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': encodePayment(stripped) } })
    expect(late.status).toBe(402)
    expect(errorOf(await late.json())?.code).toBe('payment_underpaid')
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n)
  })
})

describe('rate limits', () => {
  test('behavior: unpaid traffic over its ceiling gets 429 with Retry-After', () =>
    withinOneWindow(async () => {
      const svc = await sw.instance({ RATE_LIMIT_UNPAID: '5', TRUST_PROXY: 'true' })
      const client = ip()
      const statuses: number[] = []
      for (let i = 0; i < 7; i++) {
        const res = await fetch(`${svc.url}/v1/prices?symbols=BTC`, {
          headers: { 'x-forwarded-for': client },
        })
        statuses.push(res.status)
        if (res.status === 429) {
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
          expect(((await res.json()) as { error: { code: string } }).error.code).toBe('rate_limited')
        } else await res.body?.cancel()
      }
      expect(statuses).toEqual([402, 402, 402, 402, 402, 429, 429])
      // Another client is unaffected.
      expect((await fetch(`${svc.url}/v1`, { headers: { 'x-forwarded-for': ip() } })).status).toBe(200)
    }))

  test('behavior: paid traffic is counted per paying wallet, and a refused call moves no money', () =>
    withinOneWindow(async () => {
      const svc = await sw.instance({ RATE_LIMIT_PAID: '2' })
      const who = payer(3)
      const url = `${svc.url}/v1/prices?symbols=ETH`
      const payloads = await Promise.all(
        [1, 2, 3].map(async () => signChallenge(who, await challengeOf(url))),
      )
      const before = await sw.usdcBalance(who.account.address)
      const statuses: number[] = []
      for (const p of payloads) {
        const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': encodePayment(p) } })
        statuses.push(res.status)
        await res.body?.cancel()
      }
      expect(statuses).toEqual([200, 200, 429])
      expect(await sw.usdcBalance(who.account.address)).toBe(before - 2000n)
    }))
})

describe('shared state outage', () => {
  test('error: without Redis, calls fail closed with 503 store_unavailable and nothing is charged', async () => {
    const svc = await sw.instance({ REDIS_URL: 'redis://127.0.0.1:9' })
    const url = `${svc.url}/v1/prices?symbols=BTC`
    const unpaid = await fetch(url)
    expect(unpaid.status).toBe(503)
    expect(((await unpaid.json()) as { error: { code: string } }).error.code).toBe('store_unavailable')

    const who = payer(5)
    // The challenge comes from a healthy instance; the payment goes to the one without Redis.
    const healthy = await sw.instance()
    const payload = await signChallenge(who, await challengeOf(`${healthy.url}/v1/prices?symbols=BTC`))
    const before = await sw.usdcBalance(who.account.address)
    const paid = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
    expect(paid.status).toBe(503)
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
  })
})

describe('settlement that outlives the bounded wait', () => {
  test('behavior: recorded pending, served, then reconciled from the chain without a rebroadcast', async () => {
    const svc = await sw.instance({ SETTLE_TIMEOUT_MS: '1000' })
    const testClient = createTestClient({ mode: 'anvil', transport: http(sw.world.rpcUrl) })
    const who = payer(4)
    const url = `${svc.url}/v1/prices?symbols=BTC`
    const payload = await signChallenge(who, await challengeOf(url))
    const before = await sw.usdcBalance(payTo)

    await testClient.setAutomine(false)
    try {
      const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
      expect(res.status).toBe(200)
      const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') as string)
      expect(receipt).toMatchObject({ success: false, errorReason: 'settlement_pending' })
      expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/)
      // The pending outcome (with its hash) is written just after the response.
      await eventually(async () =>
        expect((await svc.services.deps.ledger.byPayer(who.account.address))[0]).toMatchObject({
          status: 'pending',
          txHash: receipt.transaction,
        }),
      )

      // Still unmined: a reconcile round leaves it pending.
      await svc.services.reconcile()
      expect((await svc.services.deps.ledger.byPayer(who.account.address))[0]?.status).toBe('pending')

      await testClient.mine({ blocks: 1 })
      await svc.services.reconcile()
      expect((await svc.services.deps.ledger.byPayer(who.account.address))[0]).toMatchObject({
        status: 'settled',
        txHash: receipt.transaction,
      })
      // The replay is refused while the first settlement is pending or settled.
      const replay = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
      expect(replay.status).toBe(402)
    } finally {
      await testClient.setAutomine(true)
    }
    expect(await sw.usdcBalance(payTo)).toBe(before + 1000n)
  })
})
