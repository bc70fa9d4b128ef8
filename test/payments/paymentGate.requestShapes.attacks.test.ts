import { request } from 'node:http'
import type { PaymentPayload } from '@x402/core/types'
import { type Hex, keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { USDC } from '../../src/chain/network.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { AUTHORIZATION_TYPES, USDC_DOMAIN } from '../../src/payments/exact/recoverAuthorizer.js'
import { USDC_SETTLEMENT_ABI } from '../../src/payments/exact/settlementOutcome.js'
import { pay, send } from '../helpers/attackKit.js'
import { authorize } from '../helpers/authorize.js'
import { challengeOf, encodePayment, signChallenge, useInstance, useWorld } from '../helpers/serviceWorld.js'

/**
 * Attacks an outside review tried on the gate and found refused (issue 22, "keep them refuted"): each is
 * performed here with a valid, funded payment, and the test asserts what moved, so that a change that
 * reopens one fails.
 */
const sw = useWorld()
const svc = useInstance(sw)
const payTo = demoAccounts[9]?.address as `0x${string}`
const PRICES = '/v1/prices?symbols=BTC'
const PRICE = 1_000n

const nonceOf = (p: PaymentPayload) => (p.payload.authorization as { nonce: Hex }).nonce
const used = (payer: `0x${string}`, nonce: Hex) =>
  sw.chain.readContract({
    address: USDC,
    abi: USDC_SETTLEMENT_ABI,
    functionName: 'authorizationState',
    args: [payer, nonce],
  })

/**
 * GET of a path exactly as spelled: fetch would normalize `./` and `x/../` away before sending, and the
 * point is what the server does with them.
 */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<number> {
  const { hostname, port } = new URL(svc.url)
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET', headers }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end()
  })
}

/** A funded payer and a payment for /v1/prices signed by the official client. */
async function paidPrices() {
  const who = await sw.freshWallet(10n * PRICE)
  const payload = await signChallenge(who, await challengeOf(`${svc.url}${PRICES}`))
  return { who, payload, payer: who.account.address }
}

describe('methods: HEAD, OPTIONS and X-HTTP-Method-Override never serve or charge', () => {
  test('error: OPTIONS with a payment is not served and moves nothing; the authorization still pays its GET once', async () => {
    const { payload, payer } = await paidPrices()
    const res = await fetch(`${svc.url}${PRICES}`, {
      method: 'OPTIONS',
      headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) },
    })
    // The CORS preflight answer, with no body and no settlement.
    expect(res.status).toBe(204)
    await res.body?.cancel()
    expect(await sw.usdcBalance(payer)).toBe(10n * PRICE)
    expect(await used(payer, nonceOf(payload))).toBe(false)
    expect((await pay(`${svc.url}${PRICES}`, payload)).status).toBe(200)
    expect(await sw.usdcBalance(payer)).toBe(9n * PRICE)
  })

  test('error: X-HTTP-Method-Override does not turn a POST into the GET it names, nor a GET into a builder', async () => {
    const { payload, payer } = await paidPrices()
    const header = { 'PAYMENT-SIGNATURE': encodePayment(payload), 'X-HTTP-Method-Override': 'GET' }
    const asPost = await fetch(`${svc.url}${PRICES}`, { method: 'POST', headers: header })
    expect(asPost.status).toBe(405)
    await asPost.body?.cancel()
    // A GET that asks to be a POST builder is the GET of a path that has no GET: never served.
    const unpaidBuilder = await send(`${svc.url}/v1/tx/swap`, { 'X-HTTP-Method-Override': 'POST' })
    expect([402, 405]).toContain(unpaidBuilder.status)
    expect(await sw.usdcBalance(payer)).toBe(10n * PRICE)
    expect(await used(payer, nonceOf(payload))).toBe(false)
  })
})

describe('path spellings never reach a handler without the gate', () => {
  const spellings = [
    '/v1/%70rices?symbols=BTC',
    '/v1/./prices?symbols=BTC',
    '/v1/x/../prices?symbols=BTC',
    '/v1/prices/?symbols=BTC',
    '/V1/prices?symbols=BTC',
  ]
  test('error: unpaid, every spelling is a 402 challenge or a 404, never the data', async () => {
    for (const path of spellings) expect([402, 404], path).toContain(await rawGet(path))
  })

  test('behavior: paid, a spelling is served only through the gate: a 200 is charged exactly once', async () => {
    for (const path of spellings) {
      const { payload, payer } = await paidPrices()
      const status = await rawGet(path, { 'PAYMENT-SIGNATURE': encodePayment(payload) })
      const charged = await used(payer, nonceOf(payload))
      if (status === 200) {
        expect(charged, path).toBe(true)
        expect(await sw.usdcBalance(payer), path).toBe(9n * PRICE)
      } else {
        expect(charged, path).toBe(false)
        expect(await sw.usdcBalance(payer), path).toBe(10n * PRICE)
      }
    }
  })
})

describe('one request, one payment', () => {
  test('error: both payment headers present: one is used and charged once, the other stays unused', async () => {
    const who = await sw.freshWallet(10n * PRICE)
    const challenge = await challengeOf(`${svc.url}${PRICES}`)
    const [a, b] = await Promise.all([signChallenge(who, challenge), signChallenge(who, challenge)])
    const res = await send(`${svc.url}${PRICES}`, {
      'PAYMENT-SIGNATURE': encodePayment(a as PaymentPayload),
      'X-PAYMENT': encodePayment(b as PaymentPayload),
    })
    expect(res.status).toBe(200)
    expect(await sw.usdcBalance(who.account.address)).toBe(9n * PRICE)
    expect(await used(who.account.address, nonceOf(a as PaymentPayload))).toBe(true)
    expect(await used(who.account.address, nonceOf(b as PaymentPayload))).toBe(false)
  })

  test('error: a cheap route’s quote carried to a dearer route is refused and moves nothing', async () => {
    const who = await sw.freshWallet(10n * PRICE)
    // /v1/prices costs $0.001; /v1/alpha $0.01: the $0.001 payment, quote and all, is sent to /v1/alpha.
    const cheap = await signChallenge(who, await challengeOf(`${svc.url}${PRICES}`))
    const res = await pay(`${svc.url}/v1/alpha?symbols=BTC`, cheap)
    expect(res.status).toBe(402)
    expect(['payment_underpaid', 'payment_amount_mismatch', 'payment_quote_expired']).toContain(res.code)
    expect(await sw.usdcBalance(who.account.address)).toBe(10n * PRICE)
    expect(await used(who.account.address, nonceOf(cheap))).toBe(false)
  })
})

describe('signatures for another domain', () => {
  for (const [name, domain] of [
    ['another chain id', { ...USDC_DOMAIN, chainId: 1 }],
    ['another token contract', { ...USDC_DOMAIN, verifyingContract: payTo }],
  ] as const) {
    test(`error: an authorization signed for ${name} is refused as an invalid signature and moves nothing`, async () => {
      const who = await sw.freshWallet(10n * PRICE)
      const challenge = await challengeOf(`${svc.url}${PRICES}`)
      const { payload, message } = await authorize(
        who.privateKey,
        challenge.accepts[0] as PaymentPayload['accepted'],
      )
      const signature = await privateKeyToAccount(who.privateKey).signTypedData({
        domain,
        types: AUTHORIZATION_TYPES,
        primaryType: 'TransferWithAuthorization',
        message,
      })
      const res = await pay(`${svc.url}${PRICES}`, { ...payload, payload: { ...payload.payload, signature } })
      expect([res.status, res.code]).toEqual([402, 'payment_invalid_signature'])
      expect(await sw.usdcBalance(who.account.address)).toBe(10n * PRICE)
      expect(await used(who.account.address, message.nonce)).toBe(false)
    })
  }
})

describe('validity window', () => {
  // A block's timestamp trails the clock (by up to a block time), and USDC wants block.timestamp > validAfter:
  // an authorization valid from within the last block time could revert onchain at the relayer's cost.
  test('behavior: validAfter within the last block time (now, now - 1) is refused free with nothing broadcast', async () => {
    const who = await sw.freshWallet(10n * PRICE)
    const challenge = await challengeOf(`${svc.url}${PRICES}`)
    const relayer = svc.services.deps.facilitator.relayer as `0x${string}`
    const relayerNonce = await sw.chain.getTransactionCount({ address: relayer })
    for (const back of [0n, 1n]) {
      const now = BigInt(Math.floor(Date.now() / 1000))
      const { payload } = await authorize(
        who.privateKey,
        challenge.accepts[0] as PaymentPayload['accepted'],
        {
          validAfter: now - back,
          nonce: keccak256(toHex(`validAfter-now-${now}-${back}`)),
        },
      )
      const res = await pay(`${svc.url}${PRICES}`, payload)
      expect([res.status, res.code]).toEqual([402, 'payment_not_yet_valid'])
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(10n * PRICE)
    expect(await sw.chain.getTransactionCount({ address: relayer })).toBe(relayerNonce)
  })
})
