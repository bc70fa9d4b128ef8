import { decodePaymentResponseHeader } from '@x402/core/http'
import type { PaymentPayload } from '@x402/core/types'
import { wrapFetchWithPayment } from '@x402/fetch'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { USDC } from '../../src/chain/network.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import type { ErrorBody } from '../../src/errors.js'
import { propExecuteRoute } from '../../src/routes/prop/propExecute.js'
import { send } from '../helpers/attackKit.js'
import { authorize } from '../helpers/authorize.js'
import { errorOf } from '../helpers/errorOf.js'
import { eventually } from '../helpers/eventually.js'
import {
  challengeOf,
  encodePayment,
  payer,
  payerClient,
  signChallenge,
  useInstance,
  useWorld,
} from '../helpers/serviceWorld.js'

const sw = useWorld()
const svc = useInstance(sw)
const payTo = demoAccounts[9]?.address as `0x${string}`

/** Sends a prepared payment header (in `name`) for `path` and returns status, body and headers. */
const sendHeader = (path: string, header: string, name = 'PAYMENT-SIGNATURE') =>
  send<ErrorBody & Record<string, unknown>>(`${svc.url}${path}`, { [name]: header })

/** Signs an EIP-3009 authorization by hand, for payloads the official client would never produce. */
const signAuthorization = async (
  privateKey: Hex,
  fields: { to?: `0x${string}`; value: bigint; validAfter?: bigint; validBefore?: bigint },
  accepted: PaymentPayload['accepted'],
): Promise<PaymentPayload> => (await authorize(privateKey, accepted, fields)).payload

describe('x402 payment gate on the devnet', () => {
  test('behavior: an unpaid call gets 402 before validation, with the challenge in header and body', async () => {
    const res = await fetch(`${svc.url}/v1/prices?symbols=!!!&ref=0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC`)
    expect(res.status).toBe(402)
    const body = (await res.json()) as Record<string, unknown> & {
      accepts: { amount: string; extra: object }[]
    }
    const header = await challengeOf(`${svc.url}/v1/prices?symbols=!!!`)
    expect(body.x402Version).toBe(2)
    expect(body.accepts[0]).toMatchObject({
      scheme: 'exact',
      network: 'eip155:8453',
      asset: USDC,
      amount: '1000',
      payTo,
      extra: { name: 'USD Coin', version: '2' },
    })
    expect(header.accepts[0]?.amount).toBe('1000')
    expect(body.promote).toMatchObject({ referralParam: 'ref=0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' })
    expect(body.utilCredit).toMatchObject({
      recipient: payTo,
      rate: 0.5,
      surgeExempt: true,
      maxTopUpAgeSec: 86_400,
    })
  })

  test('behavior: the official @x402/fetch client pays for /v1/prices; USDC moves by exactly the challenged amount', async () => {
    const who = payer(2)
    const url = `${svc.url}/v1/prices?symbols=BTC,ETH,EUR`
    const amount = BigInt((await challengeOf(url)).accepts[0]?.amount ?? '0')
    const [payerBefore, payToBefore] = await Promise.all([
      sw.usdcBalance(who.account.address),
      sw.usdcBalance(payTo),
    ])

    const res = await wrapFetchWithPayment(fetch, who.client)(url)
    expect(res.status).toBe(200)
    const body = (await res.json()) as {
      prices: {
        symbol: string
        spot: { usd: number } | null
        perp: { pairIndex: number; mark: number; index: number } | null
      }[]
    }
    const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') as string)
    expect(receipt).toMatchObject({ success: true, network: 'eip155:8453', payer: who.account.address })
    expect(res.headers.get('x-payment-response')).toBe(res.headers.get('payment-response'))

    const mined = await sw.chain.getTransactionReceipt({ hash: receipt.transaction as Hex })
    expect(mined.status).toBe('success')
    expect(await sw.usdcBalance(who.account.address)).toBe(payerBefore - amount)
    expect(await sw.usdcBalance(payTo)).toBe(payToBefore + amount)

    // Both legs are read through the adapters from the simulators: spot from the exchange, perp from gTrade + Pyth.
    const btc = body.prices.find((p) => p.symbol === 'BTC')
    const eur = body.prices.find((p) => p.symbol === 'EUR')
    expect(btc?.spot?.usd).toBeCloseTo(sw.world.sim.spot('BTC'), -2)
    expect(btc?.perp?.pairIndex).toBe(0)
    expect(btc?.perp?.index).toBeCloseTo(sw.world.sim.spot('BTC'), -2)
    expect(btc?.perp?.mark).toBeGreaterThan(btc?.perp?.index ?? Number.POSITIVE_INFINITY)
    expect(eur?.spot).toBeNull()
    expect(eur?.perp?.index).toBeGreaterThan(0)

    // The row is opened before the broadcast; its outcome is written just after the response.
    await eventually(async () =>
      expect((await svc.services.deps.ledger.byPayer(who.account.address)).at(-1)).toMatchObject({
        status: 'settled',
        txHash: receipt.transaction,
        amount,
        route: 'GET /v1/prices',
      }),
    )
  })

  test('behavior: a call carrying only X-PAYMENT is served and answered with X-PAYMENT-RESPONSE', async () => {
    const who = payer(3)
    const payload = await signChallenge(who, await challengeOf(`${svc.url}/v1/prices?symbols=ETH`))
    const res = await sendHeader('/v1/prices?symbols=ETH', encodePayment(payload), 'X-PAYMENT')
    expect(res.status).toBe(200)
    const receipt = decodePaymentResponseHeader(res.headers.get('x-payment-response') as string)
    expect(receipt.success).toBe(true)
  })

  test('behavior: fifty concurrent submissions of one authorization yield one 200 and one settlement', async () => {
    const who = payer(4)
    const payload = await signChallenge(who, await challengeOf(`${svc.url}/v1/prices?symbols=BTC`))
    const before = await sw.usdcBalance(who.account.address)
    const header = encodePayment(payload)
    const results = await Promise.all(
      Array.from({ length: 50 }, () => sendHeader('/v1/prices?symbols=BTC', header)),
    )
    const ok = results.filter((r) => r.status === 200)
    expect(ok).toHaveLength(1)
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(402)
      expect(errorOf(r.body)?.code).toBe('payment_replayed')
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n)
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toHaveLength(1)
    // And once more, after it settled.
    const again = await sendHeader('/v1/prices?symbols=BTC', header)
    expect(errorOf(again.body)?.code).toBe('payment_replayed')
  })

  test('errors: tampered, wrong recipient, wrong network, wrong asset, expired, underpaid and unfunded payments get their own codes and move nothing', async () => {
    const who = payer(5)
    const path = '/v1/prices?symbols=BTC'
    const challenge = await challengeOf(`${svc.url}${path}`)
    const accepted = challenge.accepts[0] as PaymentPayload['accepted']
    const before = await sw.usdcBalance(who.account.address)
    const key = demoAccounts[5]?.privateKey as Hex

    const honest = await signChallenge(who, challenge)
    const tampered = structuredClone(honest)
    ;(tampered.payload.authorization as { value: string }).value = '1'
    const wrongNetwork = structuredClone(honest)
    wrongNetwork.accepted.network = 'eip155:84532'
    const wrongAsset = structuredClone(honest)
    wrongAsset.accepted.asset = '0x4200000000000000000000000000000000000006'
    const now = BigInt(Math.floor(Date.now() / 1000))
    const cases: [string, PaymentPayload][] = [
      ['payment_invalid_signature', tampered],
      ['payment_wrong_network', wrongNetwork],
      ['payment_wrong_asset', wrongAsset],
      [
        'payment_wrong_recipient',
        await signAuthorization(
          key,
          { to: who.account.address, value: 1000n },
          { ...accepted, payTo: who.account.address },
        ),
      ],
      ['payment_expired', await signAuthorization(key, { value: 1000n, validBefore: now - 10n }, accepted)],
      ['payment_underpaid', await signAuthorization(key, { value: 999n }, { ...accepted, amount: '999' })],
      ['payment_malformed', { ...honest, payload: { signature: '0x00' } } as PaymentPayload],
    ]
    for (const [code, payload] of cases) {
      const res = await sendHeader(path, encodePayment(payload))
      expect(res.status, code).toBe(402)
      expect(errorOf(res.body)?.code, code).toBe(code)
      expect(res.headers.get('payment-required'), code).toBeTruthy()
      expect(res.body.accepts, code).toBeDefined()
    }
    const garbage = await sendHeader(path, 'not-base64-json')
    expect(errorOf(garbage.body)?.code).toBe('payment_malformed')

    // A wallet without USDC signs a perfectly valid authorization; the chain refuses it at settlement.
    const broke = payerClient(generatePrivateKey())
    const unfunded = await sendHeader(path, encodePayment(await signChallenge(broke, challenge)))
    expect(unfunded.status).toBe(402)
    expect(errorOf(unfunded.body)?.code).toBe('payment_insufficient_funds')
    // The raw RPC error (URL, revert reason, calldata) never reaches the caller.
    const raw = JSON.stringify(unfunded.body) + JSON.stringify([...unfunded.headers])
    expect(raw).not.toContain(sw.world.rpcUrl)
    expect(raw).not.toMatch(/revert|exceeds balance|0x[0-9a-f]{200}/i)

    expect(await sw.usdcBalance(who.account.address)).toBe(before)
    // The honest payload was never consumed by the refusals above: it still pays once.
    expect((await sendHeader(path, encodePayment(honest))).status).toBe(200)
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n)
  })

  test('behavior: a paid request with bad input gets 400 naming the field and moves no money', async () => {
    const who = payer(6)
    const challenge = await challengeOf(`${svc.url}/v1/candles`)
    const payload = await signChallenge(who, challenge)
    const before = await sw.usdcBalance(who.account.address)
    const bad = await sendHeader('/v1/candles?product=BTC-USD&days=999', encodePayment(payload))
    expect(bad.status).toBe(400)
    expect(bad.body.error.field).toBe('days')
    expect(bad.headers.get('payment-response')).toBeNull()
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toHaveLength(0)

    // A priced path whose handler refuses after the payment was admitted (the prop desk, given a transfer
    // hash that names no transaction) keeps the money where it is, with a valid payment of its own price.
    const prop = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(propExecuteRoute.example?.body),
    }
    const propPayload = await signChallenge(who, await challengeOf(`${svc.url}/v1/prop/execute`, prop))
    const refused = await fetch(`${svc.url}/v1/prop/execute`, {
      ...prop,
      headers: { ...prop.headers, 'PAYMENT-SIGNATURE': encodePayment(propPayload) },
    })
    expect(refused.status).toBe(422)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('bad_pay_tx_hash')
    expect(await sw.usdcBalance(who.account.address)).toBe(before)

    // The same authorization, with good input, then pays once and returns the candles.
    const good = await sendHeader('/v1/candles?product=BTC-USD&days=7', encodePayment(payload))
    expect(good.status).toBe(200)
    expect(good.body).toMatchObject({ productId: 'BTC-USD', days: 7, granularitySec: 3600, candles: 168 })
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n)
  })

  test('behavior: an upstream fault is a 502 that moves no money', async () => {
    // This instance's exchange URL answers nothing.
    const broken = await sw.instance({ COINBASE_URL: 'http://127.0.0.1:9' })
    const who = payer(8)
    const path = '/v1/prices?symbols=BTC'
    const payload = await signChallenge(who, await challengeOf(`${broken.url}${path}`))
    const before = await sw.usdcBalance(who.account.address)
    const res = await fetch(`${broken.url}${path}`, {
      headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) },
    })
    expect(res.status).toBe(502)
    expect(((await res.json()) as ErrorBody).error.code).toBe('upstream_unavailable')
    expect(res.headers.get('payment-response')).toBeNull()
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
    expect(await broken.services.deps.ledger.byPayer(who.account.address)).toHaveLength(0)
  })

  test('behavior: ?ref= attributes paid calls to the referrer; a wallet cannot refer itself; standing is points only', async () => {
    const referrer = privateKeyToAccount(generatePrivateKey()).address
    const who = payer(7)
    const pay = wrapFetchWithPayment(fetch, who.client)
    expect((await pay(`${svc.url}/v1/prices?symbols=SOL&ref=${referrer}`)).status).toBe(200)
    expect((await pay(`${svc.url}/v1/candles?sym=EUR&cls=Forex&days=30&ref=${referrer}`)).status).toBe(200)
    expect((await pay(`${svc.url}/v1/prices?symbols=SOL&ref=${who.account.address}`)).status).toBe(200)

    type Standing = Record<string, unknown> & { paidCalls: number; pendingCalls: number }
    const standingOf = async (wallet: string) =>
      (await (await fetch(`${svc.url}/v1/referrals/${wallet}`)).json()) as Standing
    // Right after the responses each call counts, as paid or as pending; then all of them as paid.
    const now = await standingOf(referrer)
    expect(now.paidCalls + now.pendingCalls).toBe(2)
    const standing = await eventually(async () => {
      const s = await standingOf(referrer)
      expect(s.paidCalls).toBe(2)
      return s
    })
    expect(standing).toMatchObject({ referredWallets: 1, pendingCalls: 0, paidVolumeUsd: 0.002, points: 2 })
    expect(standing.terms).toMatch(/non-payable/)
    const self = (await (await fetch(`${svc.url}/v1/referrals/${who.account.address}`)).json()) as Record<
      string,
      unknown
    >
    expect(self).toMatchObject({ paidCalls: 0, points: 0 })
  })
})
