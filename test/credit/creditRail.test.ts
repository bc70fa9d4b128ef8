import type { PaymentPayload } from '@x402/core/types'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { usdToAtomic } from '../../src/payments/usdToAtomic.js'
import { getPricesRoute } from '../../src/routes/prices/getPrices.js'
import {
  authorizationUsed,
  type CreditWallet,
  creditOf,
  expectedCreditUsd,
  paidFetch,
  poolSqrtPrice,
  setPoolSqrtPrice,
  transferUtil,
  utilUsdAt,
  utilWallet,
} from '../helpers/creditKit.js'
import { errorOf } from '../helpers/errorOf.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// The UTIL prepaid credit rail (issue 25) on the devnet, with the official client (@x402/fetch) paying
// as it always does: the rail reads the same signature and never submits it.
const sw = useWorld()
const svc = useInstance(sw)

const PRICE = usdToAtomic(getPricesRoute.priceUsd as number)
const HALF = PRICE / 2n
const UTIL_1M = 10n ** 24n // a million UTIL (18 decimals): about $100 at the devnet's $0.0001
const prices = () => `${svc.url}/v1/prices?symbols=ETH`

/** The official client, remembering each payment it signed (to look its authorization up onchain). */
function recordingClient(w: CreditWallet) {
  const sent: PaymentPayload[] = []
  w.client.onAfterPaymentCreation(async ({ paymentPayload }) => {
    sent.push(paymentPayload)
  })
  const nonceOf = (p: PaymentPayload | undefined) => {
    if (p === undefined) throw new Error('no payment was signed')
    return (p.payload as { authorization: { nonce: `0x${string}` } }).authorization.nonce
  }
  return { sent, nonceOf }
}

/** A wallet that sent `util` UTIL to the credit recipient: the wallet and the transfer's hash and block. */
async function toppedUpWallet(util: bigint, usdc = 1_000_000n) {
  const w = await utilWallet(sw, usdc, util)
  const hash = await transferUtil(sw.chain, w.privateKey, svc.config.payments.creditRecipient, util)
  const { blockNumber } = await sw.chain.getTransactionReceipt({ hash })
  return { w, hash, blockNumber }
}

describe('top-up, then calls on credit', () => {
  let originalPrice: bigint
  beforeAll(async () => {
    originalPrice = await poolSqrtPrice(sw.chain)
  })
  afterAll(async () => {
    await setPoolSqrtPrice(sw.chain, originalPrice)
  })

  test('behavior: the transfer is credited at its block’s pool price (or the pool oracle’s 30-minute mean, if lower); the call rides on credit: half price, no USDC moved, the authorization never submitted', async () => {
    const { w, hash, blockNumber } = await toppedUpWallet(UTIL_1M)
    // The pool moves after the transfer: the credit must follow the price at the transfer's block.
    await setPoolSqrtPrice(sw.chain, (originalPrice * 3n) / 2n)
    const atBlock = await utilUsdAt(sw.chain, UTIL_1M, blockNumber)
    const now = await utilUsdAt(sw.chain, UTIL_1M, 'latest')
    expect(Math.abs(now - atBlock) / atBlock).toBeGreaterThan(0.3)

    const usdcBefore = await sw.usdcBalance(w.account.address)
    const payToBefore = await sw.usdcBalance(svc.config.payTo)
    const { sent, nonceOf } = recordingClient(w)
    const res = await paidFetch(w, { 'X-UTIL-TOPUP': hash })(prices())
    expect(res.status).toBe(200)
    expect(((await res.json()) as { prices: unknown[] }).prices).toHaveLength(1)

    // The receipt says credit paid, in the form the official client reads.
    const receipt = w.http.getPaymentSettleResponse((name) => res.headers.get(name))
    expect(receipt).toMatchObject({ success: true, transaction: '', amount: '0', payer: w.account.address })
    const credit = (receipt.extra as { utilCredit: Record<string, unknown> }).utilCredit
    expect(credit.debitedAtomic).toBe(HALF.toString())

    const statement = await creditOf(svc.url, w.account.address)
    expect(statement.topUps).toHaveLength(1)
    expect(statement.topUps[0]).toMatchObject({ txHash: hash, utilAmount: UTIL_1M.toString() })
    const credited = statement.topUps[0]?.creditedUsd as number
    // Never above the block's price; the least of it and the pool oracle's mean, within one atomic unit.
    expect(credited).toBeLessThanOrEqual(atBlock)
    expect(
      Math.abs(credited - (await expectedCreditUsd(sw.chain, UTIL_1M, blockNumber))),
    ).toBeLessThanOrEqual(1e-6)
    expect(BigInt(statement.balanceAtomic)).toBe(BigInt(Math.round(credited * 1e6)) - HALF)
    expect(credit.balanceAtomic).toBe(statement.balanceAtomic)
    expect(statement.debits).toEqual([
      expect.objectContaining({ route: 'GET /v1/prices', status: 'spent', amountUsd: Number(HALF) / 1e6 }),
    ])

    // No USDC moved, and the authorization the client signed was never submitted.
    expect(await sw.usdcBalance(w.account.address)).toBe(usdcBefore)
    expect(await sw.usdcBalance(svc.config.payTo)).toBe(payToBefore)
    expect(sent).toHaveLength(1)
    expect(await authorizationUsed(sw.chain, w.account.address, nonceOf(sent[0]))).toBe(false)
  })

  test('behavior: later calls spend credit without a header; the same hash again is topup_used and changes nothing', async () => {
    const { w, hash } = await toppedUpWallet(UTIL_1M)
    const pay = paidFetch(w)
    const first = await paidFetch(w, { 'X-UTIL-TOPUP': hash })(prices())
    expect(first.status).toBe(200)
    const afterFirst = BigInt((await creditOf(svc.url, w.account.address)).balanceAtomic)

    const second = await pay(prices())
    expect(second.status).toBe(200)
    expect(BigInt((await creditOf(svc.url, w.account.address)).balanceAtomic)).toBe(afterFirst - HALF)

    const again = await paidFetch(w, { 'X-UTIL-TOPUP': hash })(prices())
    expect(again.status).toBe(409)
    expect(errorOf(await again.json())).toMatchObject({ code: 'topup_used', field: 'X-UTIL-TOPUP' })
    const statement = await creditOf(svc.url, w.account.address)
    expect(BigInt(statement.balanceAtomic)).toBe(afterFirst - HALF)
    expect(statement.topUps).toHaveLength(1)
    expect(await sw.usdcBalance(w.account.address)).toBe(1_000_000n)
  })

  test('behavior: X-UTIL-CREDIT: off settles USDC and leaves the credit alone', async () => {
    const { w, hash } = await toppedUpWallet(UTIL_1M)
    expect((await paidFetch(w, { 'X-UTIL-TOPUP': hash })(prices())).status).toBe(200)
    const credit = BigInt((await creditOf(svc.url, w.account.address)).balanceAtomic)
    const { sent, nonceOf } = recordingClient(w)

    const res = await paidFetch(w, { 'X-UTIL-CREDIT': 'off' })(prices())
    expect(res.status).toBe(200)
    const receipt = w.http.getPaymentSettleResponse((name) => res.headers.get(name))
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await sw.usdcBalance(w.account.address)).toBe(1_000_000n - PRICE)
    expect(await authorizationUsed(sw.chain, w.account.address, nonceOf(sent[0]))).toBe(true)
    expect(BigInt((await creditOf(svc.url, w.account.address)).balanceAtomic)).toBe(credit)
  })

  test('behavior: credit short of half the price: the call pays USDC as usual, the credit is untouched', async () => {
    // One UTIL is worth about $0.0001: 100 atomic units, less than the 500 a credit call costs.
    const { w, hash } = await toppedUpWallet(10n ** 18n)
    const res = await paidFetch(w, { 'X-UTIL-TOPUP': hash })(prices())
    expect(res.status).toBe(200)
    expect(await sw.usdcBalance(w.account.address)).toBe(1_000_000n - PRICE)
    const statement = await creditOf(svc.url, w.account.address)
    expect(statement.topUps).toHaveLength(1)
    expect(BigInt(statement.balanceAtomic)).toBeGreaterThan(0n)
    expect(BigInt(statement.balanceAtomic)).toBeLessThan(HALF)
    expect(statement.debits).toEqual([])
  })

  test('behavior: a call whose handler fails gives its debit back; the top-up it carried stays registered', async () => {
    const { w, hash } = await toppedUpWallet(UTIL_1M)
    const res = await paidFetch(w, { 'X-UTIL-TOPUP': hash })(`${svc.url}/v1/prices?symbols=NOPE_NOT_LISTED`)
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    const statement = await creditOf(svc.url, w.account.address)
    expect(statement.topUps).toHaveLength(1)
    expect(BigInt(statement.balanceAtomic)).toBe(
      BigInt(Math.round((statement.topUps[0]?.creditedUsd as number) * 1e6)),
    )
    expect(statement.debits).toEqual([expect.objectContaining({ status: 'released' })])
    expect(await sw.usdcBalance(w.account.address)).toBe(1_000_000n)
  })
})

describe('surge', () => {
  test('behavior: while surge doubles the posted price, a credit call still debits half the base price', async () => {
    // Capacity 2 rps: 20 admitted calls in one 10 s window double the price; the clock is frozen so the
    // machine's speed cannot spread them over two windows.
    const frozen = Date.now()
    const busy = await sw.instance({ SURGE_CAPACITY_RPS: '2' }, { clock: () => frozen })
    const w = await utilWallet(sw, 0n, UTIL_1M)
    const hash = await transferUtil(sw.chain, w.privateKey, busy.config.payments.creditRecipient, UTIL_1M)
    const url = `${busy.url}/v1/prices?symbols=BTC`
    const first = await paidFetch(w, { 'X-UTIL-TOPUP': hash })(url)
    expect(first.status).toBe(200)
    for (let i = 0; i < 20; i++) expect((await paidFetch(w)(url)).status).toBe(200)
    const challenge = await fetch(url)
    expect(challenge.status).toBe(402)
    const body = (await challenge.json()) as { accepts: { amount: string }[] }
    expect(body.accepts[0]?.amount).toBe((PRICE * 2n).toString())

    const before = BigInt((await creditOf(busy.url, w.account.address)).balanceAtomic)
    const res = await paidFetch(w)(url)
    expect(res.status).toBe(200)
    const receipt = w.http.getPaymentSettleResponse((name) => res.headers.get(name))
    expect((receipt.extra as { utilCredit: { debitedAtomic: string } }).utilCredit.debitedAtomic).toBe(
      HALF.toString(),
    )
    expect(BigInt((await creditOf(busy.url, w.account.address)).balanceAtomic)).toBe(before - HALF)
    // The wallet holds no USDC at all: every one of its 22 calls rode on credit.
    expect(await sw.usdcBalance(w.account.address)).toBe(0n)
  })
})
