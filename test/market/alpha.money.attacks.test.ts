import type { PaymentPayload } from '@x402/core/types'
import { type Address, getAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { errorOf } from '../helpers/errorOf.js'
import { eventually } from '../helpers/eventually.js'
import {
  challengeOf,
  encodePayment,
  type Instance,
  signChallenge,
  useInstance,
  useWorld,
} from '../helpers/serviceWorld.js'

// Money attacks on the paid alpha reads (/v1/ideas, /v1/arbitrage, /v1/alpha at $0.01; /v1/ideas/compare
// and /v1/ideas/asset/{sym} in the upstream fault): a payer holding
// two calls' price racing three, one authorization replayed ten times at once, malformed numeric query
// fields sent with a valid payment, and the oracle failing after the payment verified. Each asserts the
// payer's USDC on the chain and the ledger rows. Tests run in order: instances share one relayer key.

const TAKER = getAddress(demoAccounts[1]?.address as string)
const ALPHA_PRICE = 10_000n // $0.01

const sw = useWorld()
const svc = useInstance(sw)

interface Answer {
  status: number
  code: string | undefined
  field: string | undefined
  headers: Headers
}
async function pay(url: string, payload: PaymentPayload): Promise<Answer> {
  const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
  const text = await res.text()
  let error: { code?: string; field?: string } | undefined
  try {
    error = errorOf(JSON.parse(text))
  } catch {
    error = undefined
  }
  return { status: res.status, code: error?.code, field: error?.field, headers: res.headers }
}

const rowsOf = (payer: Address, on: Instance = svc) => on.services.deps.ledger.byPayer(payer)

/** Waits until the payer's rows are exactly `n` settled ones, each of one alpha price and served. */
async function expectSettledRows(payer: Address, n: number): Promise<void> {
  const rows = await eventually(async () => {
    const r = await rowsOf(payer)
    expect(r.map((x) => x.status)).toEqual(Array.from({ length: n }, () => 'settled'))
    return r
  })
  for (const row of rows) {
    expect(BigInt(row.amount)).toBe(ALPHA_PRICE)
    expect(row.served).toBe(true)
  }
}

describe('money attacks on the alpha reads', () => {
  test('attack: a payer holding exactly two /v1/alpha calls fires three at once: two served and charged, one refused', async () => {
    const who = await sw.freshWallet(2n * ALPHA_PRICE)
    const url = `${svc.url}/v1/alpha?symbols=BTC,ETH`
    const challenge = await challengeOf(url)
    const payloads = await Promise.all([0, 1, 2].map(() => signChallenge(who, challenge)))
    const answers = await Promise.all(payloads.map((p) => pay(url, p)))
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses, JSON.stringify(answers.map((a) => a.code))).toEqual([200, 200, 402])
    const refused = answers.find((a) => a.status === 402)
    expect(refused?.code).toBe('payment_insufficient_funds')
    expect(refused?.headers.get('payment-response')).toBeNull()
    expect(await sw.usdcBalance(who.account.address)).toBe(0n)
    await expectSettledRows(who.account.address, 2)
  }, 90_000)

  test('attack: one authorization for /v1/ideas replayed ten times at once is served once and charged once', async () => {
    const funded = 1_000_000n
    const who = await sw.freshWallet(funded)
    const url = `${svc.url}/v1/ideas?symbols=BTC`
    const payload = await signChallenge(who, await challengeOf(url))
    const answers = await Promise.all(Array.from({ length: 10 }, () => pay(url, payload)))
    const codes = JSON.stringify(answers.map((a) => [a.status, a.code]))
    expect(
      answers.filter((a) => a.status === 200),
      codes,
    ).toHaveLength(1)
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status, codes).toBe(402)
      expect(a.code?.startsWith('payment_'), codes).toBe(true)
      expect(a.headers.get('payment-response')).toBeNull()
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(funded - ALPHA_PRICE)
    await expectSettledRows(who.account.address, 1)
  }, 90_000)

  test('attack: empty or hex numeric query fields with a valid payment are 400 naming the field, move nothing, and leave the authorization usable once', async () => {
    const funded = 1_000_000n
    const who = await sw.freshWallet(funded)
    const goodPath = '/v1/ideas?symbols=BTC'
    const payload = await signChallenge(who, await challengeOf(`${svc.url}${goodPath}`))
    const arb = `/v1/arbitrage?target=USDC&taker=${TAKER}`
    for (const [path, field] of [
      [`${arb}&budget=`, 'budget'],
      [`${arb}&budget=0x10`, 'budget'],
      ['/v1/ideas?symbols=BTC&limit=', 'limit'],
      ['/v1/ideas?symbols=BTC&limit=0x3', 'limit'],
      ['/v1/alpha?symbols=BTC&limit=', 'limit'],
    ] as const) {
      const bad = await pay(`${svc.url}${path}`, payload)
      expect(bad.status, `${path}: ${bad.code}`).toBe(400)
      expect(bad.code, path).toBe('invalid_input')
      expect(bad.field, path).toBe(field)
      expect(bad.headers.get('payment-response')).toBeNull()
      expect(await sw.usdcBalance(who.account.address)).toBe(funded)
      expect(await rowsOf(who.account.address)).toEqual([])
    }
    // The same authorization, with good input, then pays exactly once.
    const good = await pay(`${svc.url}${goodPath}`, payload)
    expect(good.status, good.code).toBe(200)
    expect(good.headers.get('payment-response')).not.toBeNull()
    expect(await sw.usdcBalance(who.account.address)).toBe(funded - ALPHA_PRICE)
    await expectSettledRows(who.account.address, 1)
  }, 90_000)

  test('attack: paid alpha reads while the oracle is unreachable are 502s that move no USDC and open no ledger row', async () => {
    const broken = await sw.instance({ PYTH_HERMES_URL: 'http://127.0.0.1:9' })
    try {
      const funded = 1_000_000n
      const who = await sw.freshWallet(funded)
      const relayer = broken.services.deps.facilitator.relayer as Address
      const relayerNonce = await sw.chain.getTransactionCount({ address: relayer })
      // $0.01, $0.005 and $0.001: each path signed for its own challenge, so each could have settled.
      for (const path of ['/v1/ideas?symbols=BTC', '/v1/ideas/compare?a=ETH&b=BTC', '/v1/ideas/asset/BTC']) {
        const url = `${broken.url}${path}`
        const payload = await signChallenge(who, await challengeOf(url))
        const res = await pay(url, payload)
        expect(res.status, `${path}: ${res.code}`).toBe(502)
        expect(res.code, path).toBe('upstream_unavailable')
        expect(res.headers.get('payment-response')).toBeNull()
      }
      expect(await sw.usdcBalance(who.account.address)).toBe(funded)
      expect(await sw.chain.getTransactionCount({ address: relayer })).toBe(relayerNonce)
      expect(await rowsOf(who.account.address, broken)).toEqual([])
    } finally {
      await broken.stop()
    }
  }, 90_000)
})
