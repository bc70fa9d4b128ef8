import { Redis } from 'ioredis'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, test } from 'vitest'
import { errorOf } from '../helpers/errorOf.js'
import { eventually } from '../helpers/eventually.js'
import {
  challengeOf,
  encodePayment,
  type Instance,
  payer,
  signChallenge,
  useWorld,
} from '../helpers/serviceWorld.js'
import { withinOneWindow } from '../helpers/withinOneWindow.js'

// The real PostgreSQL and Redis of this machine (and of CI).
const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

const sw = useWorld({ blockTimeSeconds: 0.2 })
let a: Instance
let b: Instance

beforeAll(async () => {
  const shared = { DATABASE_URL, REDIS_URL, TRUST_PROXY: 'true', RATE_LIMIT_UNPAID: '4' }
  a = await sw.instance(shared)
  b = await sw.instance(shared)
}, 120_000)

// Each run is its own client: Redis keeps the rate windows of earlier runs for up to a minute.
const client = () => ({
  'x-forwarded-for': `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
})
const asClient = client()

// Each paid request from its own client: replays count against the sender's unpaid ceiling (4 here).
const pay = (instance: Instance, path: string, header: string) =>
  fetch(`${instance.url}${path}`, { headers: { 'PAYMENT-SIGNATURE': header, ...client() } }).then(
    async (r) => ({
      status: r.status,
      body: (await r.json()) as { error?: { code: string } },
    }),
  )

describe('two instances sharing PostgreSQL and Redis', () => {
  test('behavior: one authorization sent to both instances at once is served once and settled once', async () => {
    const who = payer(2)
    const path = '/v1/prices?symbols=BTC'
    const payload = await signChallenge(who, await challengeOf(`${a.url}${path}`, { headers: asClient }))
    const header = encodePayment(payload)
    const nonce = (payload.payload.authorization as { nonce: string }).nonce.toLowerCase()
    const before = await sw.usdcBalance(who.account.address)
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => pay(i % 2 ? a : b, path, header)))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => errorOf(r.body)?.code === 'payment_replayed')).toHaveLength(49)
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n)
    // One settled row in the shared ledger, seen alike from both instances (the outcome is written just
    // after the response, so wait for it).
    await eventually(async () => {
      for (const instance of [a, b]) {
        const rows = await instance.services.deps.ledger.byPayer(who.account.address)
        // The database outlives test runs: look at this authorization's row only.
        expect(rows.filter((r) => r.nonce === nonce).map((r) => r.status)).toEqual(['settled'])
      }
    })
  })

  test('behavior: the ledger is shared, and it refuses a replay even when the Redis claim is gone', async () => {
    const who = payer(3)
    const referrer = privateKeyToAccount(generatePrivateKey()).address
    const path = `/v1/prices?symbols=ETH&ref=${referrer}`
    const payload = await signChallenge(who, await challengeOf(`${a.url}${path}`, { headers: asClient }))
    expect((await pay(a, path, encodePayment(payload))).status).toBe(200)

    // From the other instance, at once: the call counts (paid, or pending while its outcome is written).
    const standingAtB = async () =>
      (await (await fetch(`${b.url}/v1/referrals/${referrer}`, { headers: client() })).json()) as {
        paidCalls: number
        pendingCalls: number
      }
    const now = await standingAtB()
    expect(now.paidCalls + now.pendingCalls).toBe(1)
    await eventually(async () => expect((await standingAtB()).paidCalls).toBe(1))

    // Drop the in-flight claim, as if Redis had been flushed: the durable row still refuses the replay.
    const auth = payload.payload.authorization as { from: string; nonce: string }
    const redis = new Redis(REDIS_URL)
    await redis.del(`agentdesk:auth:${auth.from.toLowerCase()}:${auth.nonce.toLowerCase()}`)
    await redis.quit()
    const before = await sw.usdcBalance(who.account.address)
    const replay = await pay(b, path, encodePayment(payload))
    expect(replay.status).toBe(402)
    expect(errorOf(replay.body)?.code).toBe('payment_replayed')
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
  })

  test('error: a wallet holding one payment, paying ten times at once across both instances, gets one 200 and one broadcast', async () => {
    const who = await sw.freshWallet(1000n)
    const path = '/v1/prices?symbols=SOL'
    const challenge = await challengeOf(`${a.url}${path}`, { headers: asClient })
    const payloads = await Promise.all(Array.from({ length: 10 }, () => signChallenge(who, challenge)))
    const relayers = [a, b].map((i) => i.services.deps.facilitator.relayer as `0x${string}`)
    // Both instances use the same devnet relayer key; count its transactions once.
    const relayer = relayers[0] as `0x${string}`
    expect(relayers[1]).toBe(relayer)
    const nonceBefore = await sw.chain.getTransactionCount({ address: relayer })
    const results = await Promise.all(payloads.map((p, i) => pay(i % 2 ? a : b, path, encodePayment(p))))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => errorOf(r.body)?.code === 'payment_insufficient_funds')).toHaveLength(9)
    expect(await sw.chain.getTransactionCount({ address: relayer })).toBe(nonceBefore + 1)
    expect(await sw.usdcBalance(who.account.address)).toBe(0n)
  })

  test('behavior: the unpaid rate ceiling is shared across instances', () =>
    withinOneWindow(async () => {
      const fresh = client()
      const hit = (i: Instance) =>
        fetch(`${i.url}/v1`, { headers: fresh }).then(async (r) => {
          await r.body?.cancel()
          return r.status
        })
      const statuses = [await hit(a), await hit(b), await hit(a), await hit(b), await hit(a), await hit(b)]
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429])
    }))
})
