import { decodePaymentResponseHeader } from '@x402/core/http'
import type { PaymentPayload } from '@x402/core/types'
import { appendPaymentIdentifierToExtensions, generatePaymentId } from '@x402/extensions/payment-identifier'
import { erc20Abi, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { usdToAtomic } from '../../src/payments/usdToAtomic.js'
import { getPricesRoute } from '../../src/routes/prices/getPrices.js'
import { walletOf } from '../helpers/attackKit.js'
import { authorize } from '../helpers/authorize.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import {
  authorizationUsed,
  type CreditWallet,
  creditOf,
  paidFetch,
  type SignedAuthorization,
  submitAuthorization,
  transferUtil,
  UTIL,
  utilWallet,
} from '../helpers/creditKit.js'
import { errorOf } from '../helpers/errorOf.js'
import {
  challengeOf,
  encodePayment,
  type Instance,
  signChallenge,
  useInstance,
  useWorld,
} from '../helpers/serviceWorld.js'
import { testDatabase } from '../helpers/testDatabase.js'

// A second round of attacks on the UTIL credit rail (issue 25 review): the reconciler's restore, a failed
// handler after the debit, the same authorization on both rails at once, payment-identifier retries, forged
// payers and top-ups pulled by a spender. Each asserts on credit, USDC and the book's rows.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const sw = useWorld()
const svc = useInstance(sw)

const PRICE = usdToAtomic(getPricesRoute.priceUsd as number)
const HALF = PRICE / 2n
const PATH = '/v1/prices?symbols=ETH'
/** Paid, then refused by the handler (400 unknown_symbol): the gate has debited before it answers. */
const BAD_PATH = '/v1/prices?symbols=ZZQQXX'
const UTIL_1M = 10n ** 24n
const recipient = () => svc.config.payments.creditRecipient

const authOf = (p: PaymentPayload) => (p.payload as { authorization: SignedAuthorization }).authorization

/** A wallet holding `usdc` atomic USDC with ~$100 of credit (1M UTIL topped up on a paid call). */
async function creditedWallet(url: string, usdc: bigint, creditRecipient: `0x${string}`) {
  const w = await utilWallet(sw, usdc + PRICE, UTIL_1M)
  const hash = await transferUtil(sw.chain, w.privateKey, creditRecipient, UTIL_1M)
  // The top-up rides on an ordinary call paid in USDC (X-UTIL-CREDIT: off), so the credit is untouched.
  const res = await paidFetch(w, { 'X-UTIL-TOPUP': hash, 'X-UTIL-CREDIT': 'off' })(`${url}${PATH}`)
  expect(res.status).toBe(200)
  await res.body?.cancel()
  expect(await sw.usdcBalance(w.account.address)).toBe(usdc)
  return w
}

async function creditAtomic(url: string, w: CreditWallet) {
  return BigInt((await creditOf(url, w.account.address)).balanceAtomic)
}

describe('the reconciler’s restore', () => {
  test('attack: the payer burns a credit-paid nonce with an authorization of its own (1 unit to itself): the debit must stay spent', async () => {
    // USDC records (authorizer, nonce) as used and emits AuthorizationUsed whatever the authorization said:
    // another TransferWithAuthorization with the same nonce, signed by the payer, paying itself 1 unit, marks
    // it used exactly as the credit-paid one would have. No USDC reached payTo: the call stays paid by credit.
    const w = await creditedWallet(svc.url, 1_000_000n, recipient())
    const before = await creditAtomic(svc.url, w)
    const payload = await signChallenge(w, await challengeOf(`${svc.url}${PATH}`))
    const res = await fetch(`${svc.url}${PATH}`, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
    expect(res.status).toBe(200)
    await res.body?.cancel()
    expect(await creditAtomic(svc.url, w)).toBe(before - HALF)

    const a = authOf(payload)
    const own = await authorize(w.privateKey, payload.accepted, {
      to: w.account.address,
      value: 1n,
      validAfter: BigInt(a.validAfter),
      validBefore: BigInt(a.validBefore),
      nonce: a.nonce,
    })
    await submitAuthorization(
      sw.chain,
      w.privateKey,
      { ...a, to: w.account.address, value: '1' },
      own.signature,
    )
    expect(await authorizationUsed(sw.chain, w.account.address, a.nonce)).toBe(true)
    // Nothing was paid to payTo: the wallet's USDC is whole.
    expect(await sw.usdcBalance(w.account.address)).toBe(1_000_000n)

    await svc.services.reconcile()
    const after = await creditOf(svc.url, w.account.address)
    expect(after.debits[0]?.status).toBe('spent')
    expect(BigInt(after.balanceAtomic)).toBe(before - HALF)
  })
})

describe('a handler that fails after the debit', () => {
  test('attack: a paid call the handler refuses (400) gives the debit back; its authorization then pays one call, once', async () => {
    const w = await creditedWallet(svc.url, 0n, recipient())
    const before = await creditAtomic(svc.url, w)
    const payload = await signChallenge(w, await challengeOf(`${svc.url}${BAD_PATH}`))
    const header = encodePayment(payload)
    const refused = await fetch(`${svc.url}${BAD_PATH}`, { headers: { 'PAYMENT-SIGNATURE': header } })
    expect(refused.status).toBe(400)
    expect(errorOf(await refused.json())?.code).toBe('unknown_symbol')
    const released = await creditOf(svc.url, w.account.address)
    expect(BigInt(released.balanceAtomic)).toBe(before)
    expect(released.debits.map((d) => d.status)).toEqual(['released'])

    // The same authorization is usable again (as on the USDC path), and only for one call.
    const served = await fetch(`${svc.url}${PATH}`, { headers: { 'PAYMENT-SIGNATURE': header } })
    expect(served.status).toBe(200)
    await served.body?.cancel()
    const again = await fetch(`${svc.url}${PATH}`, { headers: { 'PAYMENT-SIGNATURE': header } })
    expect(again.status).toBe(402)
    expect(errorOf(await again.json())?.code).toBe('payment_replayed')
    const after = await creditOf(svc.url, w.account.address)
    expect(BigInt(after.balanceAtomic)).toBe(before - HALF)
    expect(after.debits.map((d) => d.status)).toEqual(['spent'])
    expect(await sw.usdcBalance(w.account.address)).toBe(0n)
    expect(await authorizationUsed(sw.chain, w.account.address, authOf(payload).nonce)).toBe(false)
  })
})

describe('forged payers and pulled top-ups', () => {
  test('attack: an authorization naming a credited wallet as `from` but signed by another key spends none of its credit', async () => {
    const victim = await creditedWallet(svc.url, 0n, recipient())
    const before = await creditAtomic(svc.url, victim)
    const thief = await utilWallet(sw, 1_000_000n, 0n)
    const challenge = await challengeOf(`${svc.url}${PATH}`)
    const forged = await authorize(thief.privateKey, challenge.accepts[0] as PaymentPayload['accepted'], {
      to: svc.config.payTo,
    })
    const payload: PaymentPayload = {
      ...forged.payload,
      payload: {
        ...(forged.payload.payload as { authorization: SignedAuthorization; signature: Hex }),
        authorization: { ...authOf(forged.payload), from: victim.account.address },
      },
    }
    const res = await fetch(`${svc.url}${PATH}`, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
    expect(res.status).toBe(402)
    await res.body?.cancel()
    expect(await creditAtomic(svc.url, victim)).toBe(before)
    expect((await creditOf(svc.url, victim.account.address)).debits).toEqual([])
    expect(await sw.usdcBalance(thief.account.address)).toBe(1_000_000n)
  })

  test('attack: UTIL pulled by a spender (transferFrom) credits its owner only; the spender who sent the tx cannot redeem it', async () => {
    const owner = await utilWallet(sw, 1_000_000n, UTIL_1M)
    const spender = await utilWallet(sw, 1_000_000n, 0n)
    const approve = await walletOf(sw, owner.privateKey).writeContract({
      address: UTIL,
      abi: erc20Abi,
      functionName: 'approve',
      args: [spender.account.address, UTIL_1M],
    })
    await pollReceipt(sw.chain, approve, RECEIPT)
    const pulled = await walletOf(sw, spender.privateKey).writeContract({
      address: UTIL,
      abi: erc20Abi,
      functionName: 'transferFrom',
      args: [owner.account.address, recipient(), UTIL_1M],
    })
    await pollReceipt(sw.chain, pulled, RECEIPT)

    const stolen = await paidFetch(spender, { 'X-UTIL-TOPUP': pulled })(`${svc.url}${PATH}`)
    expect(stolen.status).toBe(403)
    expect(errorOf(await stolen.json())?.code).toBe('topup_wrong_sender')
    expect((await creditOf(svc.url, spender.account.address)).balanceAtomic).toBe('0')
    expect(await sw.usdcBalance(spender.account.address)).toBe(1_000_000n)

    const redeemed = await paidFetch(owner, { 'X-UTIL-TOPUP': pulled })(`${svc.url}${PATH}`)
    expect(redeemed.status).toBe(200)
    await redeemed.body?.cancel()
    const statement = await creditOf(svc.url, owner.account.address)
    expect(statement.topUps.map((t) => t.utilAmount)).toEqual([UTIL_1M.toString()])
    const credited = BigInt(Math.round((statement.topUps[0]?.creditedUsd as number) * 1e6))
    expect(BigInt(statement.balanceAtomic)).toBe(credited - HALF)
    expect(await sw.usdcBalance(owner.account.address)).toBe(1_000_000n)
  })
})

describe('two instances on the machine’s PostgreSQL and Redis', () => {
  let a: Instance
  let b: Instance
  let dropDb: () => Promise<void>
  beforeAll(async () => {
    const db = await testDatabase()
    dropDb = db.drop
    const shared = { DATABASE_URL: db.url, REDIS_URL }
    a = await sw.instance(shared)
    b = await sw.instance(shared)
  }, 120_000)
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await dropDb?.()
  })

  test('attack: one authorization sent 20 times at once, credit on and off, to both instances: one call served, paid once', async () => {
    const w = await creditedWallet(a.url, 1_000_000n, a.config.payments.creditRecipient)
    const before = await creditAtomic(a.url, w)
    const payload = await signChallenge(w, await challengeOf(`${a.url}${PATH}`))
    const header = encodePayment(payload)
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${(i % 2 ? a : b).url}${PATH}`, {
          headers: { 'PAYMENT-SIGNATURE': header, ...(i % 4 < 2 ? { 'X-UTIL-CREDIT': 'off' } : {}) },
        }).then(async (r) => {
          await r.body?.cancel()
          return r.status
        }),
      ),
    )
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s !== 200).every((s) => s === 402)).toBe(true)
    const credit = await creditAtomic(b.url, w)
    const usdc = await sw.usdcBalance(w.account.address)
    // Exactly one rail paid: half the price in credit, or the price in USDC; never both.
    const byCredit = credit === before - HALF && usdc === 1_000_000n
    const byUsdc = credit === before && usdc === 1_000_000n - PRICE
    expect(byCredit || byUsdc, `credit ${before} → ${credit}, usdc → ${usdc}`).toBe(true)
  })

  test('attack: two different top-ups of one wallet at once, on both instances, are both credited, each once', async () => {
    const w = await utilWallet(sw, 0n, 2n * UTIL_1M)
    const first = await transferUtil(sw.chain, w.privateKey, a.config.payments.creditRecipient, UTIL_1M)
    const second = await transferUtil(sw.chain, w.privateKey, a.config.payments.creditRecipient, UTIL_1M)
    const calls = await Promise.all(
      [first, second, first, second].map((hash, i) =>
        paidFetch(w, { 'X-UTIL-TOPUP': hash })(`${(i % 2 ? a : b).url}${PATH}`).then(async (r) => ({
          status: r.status,
          code: errorOf(await r.json())?.code,
        })),
      ),
    )
    expect(calls.filter((c) => c.status === 200)).toHaveLength(2)
    expect(calls.filter((c) => c.code === 'topup_used')).toHaveLength(2)
    const statement = await creditOf(a.url, w.account.address)
    expect(statement.topUps).toHaveLength(2)
    const credited = statement.topUps.reduce((sum, t) => sum + BigInt(Math.round(t.creditedUsd * 1e6)), 0n)
    expect(BigInt(statement.balanceAtomic)).toBe(credited - 2n * HALF)
    expect(statement.debits.map((d) => d.status)).toEqual(['spent', 'spent'])
  })

  test('attack: a credit-paid call with a payment identifier, retried (also with X-UTIL-CREDIT: off) on the other instance, gets its stored answer and is debited once', async () => {
    const w = await creditedWallet(a.url, 1_000_000n, a.config.payments.creditRecipient)
    const before = await creditAtomic(a.url, w)
    const challenge = await challengeOf(`${a.url}${PATH}`)
    challenge.extensions ??= {}
    appendPaymentIdentifierToExtensions(challenge.extensions, generatePaymentId())
    const payload = await w.client.createPaymentPayload(challenge)
    const header = encodePayment(payload)
    const first = await fetch(`${a.url}${PATH}`, { headers: { 'PAYMENT-SIGNATURE': header } })
    expect(first.status).toBe(200)
    const firstBody = await first.text()
    const receipt = decodePaymentResponseHeader(first.headers.get('payment-response') as string)
    expect(receipt.transaction).toBe('')
    for (const [instance, headers] of [
      [b, {}],
      [a, { 'X-UTIL-CREDIT': 'off' }],
      [b, { 'X-UTIL-CREDIT': 'off' }],
    ] as [Instance, Record<string, string>][]) {
      const retry = await fetch(`${instance.url}${PATH}`, {
        headers: { 'PAYMENT-SIGNATURE': header, ...headers },
      })
      expect(retry.status).toBe(200)
      expect(await retry.text()).toBe(firstBody)
    }
    const after = await creditOf(b.url, w.account.address)
    expect(BigInt(after.balanceAtomic)).toBe(before - HALF)
    expect(after.debits).toHaveLength(1)
    expect(await sw.usdcBalance(w.account.address)).toBe(1_000_000n)
    expect(await authorizationUsed(sw.chain, w.account.address, authOf(payload).nonce)).toBe(false)
  })
})
