import type { PaymentPayload } from '@x402/core/types'
import { erc20Abi, type Hex, keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { USDC } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { usdToAtomic } from '../../src/payments/usdToAtomic.js'
import { getPricesRoute } from '../../src/routes/prices/getPrices.js'
import { cancelAuthorization, walletOf, withoutAutomine } from '../helpers/attackKit.js'
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
import { sendTx } from '../helpers/expectMined.js'
import {
  challengeOf,
  encodePayment,
  type Instance,
  signChallenge,
  useInstance,
  useWorld,
} from '../helpers/serviceWorld.js'
import { testDatabase } from '../helpers/testDatabase.js'

// Attacks on the UTIL credit rail (issue 25): every refusal asserts what did not change (the wallet's USDC,
// its credit, the book's rows, the authorization onchain), and every race counts what was credited or spent.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const sw = useWorld()
const svc = useInstance(sw)

const PRICE = usdToAtomic(getPricesRoute.priceUsd as number)
const HALF = PRICE / 2n
const PATH = '/v1/prices?symbols=ETH'
const UTIL_1M = 10n ** 24n
const recipient = () => svc.config.payments.creditRecipient

/** The wallet's standing, to compare before and after a refusal. */
async function standing(url: string, w: CreditWallet) {
  const statement = await creditOf(url, w.account.address)
  return {
    usdc: await sw.usdcBalance(w.account.address),
    credit: statement.balanceAtomic,
    topUps: statement.topUps.length,
    debits: statement.debits.length,
  }
}

/** One paid request signed by the official client for `url`, sent with `headers`; the payload too. */
async function signedCall(w: CreditWallet, url: string, headers: Record<string, string>) {
  const payload = await signChallenge(w, await challengeOf(url))
  const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload), ...headers } })
  return { res, payload, body: (await res.json()) as unknown }
}

const nonceOf = (p: PaymentPayload) => (p.payload as { authorization: { nonce: Hex } }).authorization.nonce

describe('bad top-ups: each refused with its code, free, changing nothing', () => {
  /** Sends `hash` as a top-up on a paid call and checks the refusal and that nothing moved. */
  async function refused(w: CreditWallet, hash: string, code: string, status: number, url = svc.url) {
    const before = await standing(url, w)
    const { res, payload, body } = await signedCall(w, `${url}${PATH}`, { 'X-UTIL-TOPUP': hash })
    expect(res.status).toBe(status)
    expect(errorOf(body)).toMatchObject({ code, field: 'X-UTIL-TOPUP' })
    expect(await standing(url, w)).toEqual(before)
    expect(await authorizationUsed(sw.chain, w.account.address, nonceOf(payload))).toBe(false)
    return payload
  }

  test('attack: garbage and unknown hashes', async () => {
    const w = await utilWallet(sw, 1_000_000n, 0n)
    await refused(w, '0x1234', 'topup_malformed', 400)
    await refused(w, `0x${'zz'.repeat(32)}`, 'topup_malformed', 400)
    const payload = await refused(w, keccak256(toHex(`nothing-${Date.now()}`)), 'topup_unknown', 422)
    // The refusal released the authorization's claim: the same payment, without the header, pays once.
    const retried = await fetch(`${svc.url}${PATH}`, {
      headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) },
    })
    expect(retried.status).toBe(200)
    expect(await sw.usdcBalance(w.account.address)).toBe(1_000_000n - PRICE)
  })

  test('attack: a transfer not mined yet is topup_not_mined (with Retry-After), and credits once mined', async () => {
    const w = await utilWallet(sw, 1_000_000n, UTIL_1M)
    const hash = await withoutAutomine(sw, async (mine) => {
      const sent = await walletOf(sw, w.privateKey).writeContract({
        address: UTIL,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [recipient(), UTIL_1M],
        gas: 100_000n,
      })
      const before = await standing(svc.url, w)
      const { res, body } = await signedCall(w, `${svc.url}${PATH}`, { 'X-UTIL-TOPUP': sent })
      expect(res.status).toBe(409)
      expect(res.headers.get('retry-after')).not.toBeNull()
      expect(errorOf(body)?.code).toBe('topup_not_mined')
      expect(await standing(svc.url, w)).toEqual(before)
      await mine()
      return sent
    })
    await pollReceipt(sw.chain, hash, RECEIPT)
    expect((await paidFetch(w, { 'X-UTIL-TOPUP': hash })(`${svc.url}${PATH}`)).status).toBe(200)
    expect((await creditOf(svc.url, w.account.address)).topUps).toHaveLength(1)
  })

  test('attack: a reverted transfer, a USDC transfer, UTIL sent elsewhere', async () => {
    const w = await utilWallet(sw, 2_000_000n, UTIL_1M)
    const wallet = walletOf(sw, w.privateKey)
    // More UTIL than the wallet holds: mined, reverted.
    const reverted = await wallet.writeContract({
      address: UTIL,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [recipient(), UTIL_1M * 2n],
      gas: 100_000n,
    })
    expect((await pollReceipt(sw.chain, reverted, RECEIPT)).status).toBe('reverted')
    await refused(w, reverted, 'topup_reverted', 422)
    const usdc = await wallet.writeContract({
      address: USDC,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [recipient(), 1_000n],
    })
    await pollReceipt(sw.chain, usdc, RECEIPT)
    await refused(w, usdc, 'topup_not_util', 422)
    const elsewhere = await transferUtil(
      sw.chain,
      w.privateKey,
      demoAccounts[3]?.address as `0x${string}`,
      10n ** 18n,
    )
    await refused(w, elsewhere, 'topup_wrong_recipient', 422)
  })

  test('attack: another wallet’s top-up is refused to whoever presents it; its sender still redeems it', async () => {
    const owner = await utilWallet(sw, 1_000_000n, UTIL_1M)
    const thief = await utilWallet(sw, 1_000_000n, 0n)
    const hash = await transferUtil(sw.chain, owner.privateKey, recipient(), UTIL_1M)
    await refused(thief, hash, 'topup_wrong_sender', 403)
    expect((await creditOf(svc.url, owner.account.address)).topUps).toEqual([])
    expect((await paidFetch(owner, { 'X-UTIL-TOPUP': hash })(`${svc.url}${PATH}`)).status).toBe(200)
    expect((await creditOf(svc.url, owner.account.address)).topUps).toHaveLength(1)
  })

  test('attack: a transfer 24 hours old or older is topup_too_old', async () => {
    // An instance whose clock runs 25 hours ahead sees the transfer just made as a day old; the payment is
    // signed by hand for that clock's validity window.
    const ahead = 25 * 3600 * 1000
    const late = await sw.instance({}, { clock: () => Date.now() + ahead })
    const w = await utilWallet(sw, 1_000_000n, UTIL_1M)
    const hash = await transferUtil(sw.chain, w.privateKey, late.config.payments.creditRecipient, UTIL_1M)
    const challenge = await challengeOf(`${late.url}${PATH}`)
    const nowSec = BigInt(Math.floor((Date.now() + ahead) / 1000))
    const { payload } = await authorize(w.privateKey, challenge.accepts[0] as PaymentPayload['accepted'], {
      validAfter: nowSec - 60n,
      validBefore: nowSec + 100n,
    })
    const before = await standing(late.url, w)
    const res = await fetch(`${late.url}${PATH}`, {
      headers: { 'PAYMENT-SIGNATURE': encodePayment(payload), 'X-UTIL-TOPUP': hash },
    })
    expect(res.status).toBe(422)
    expect(errorOf(await res.json())?.code).toBe('topup_too_old')
    expect(await standing(late.url, w)).toEqual(before)
    await late.stop()
  })

  test('attack: a top-up on a batch-settlement payment is topup_unproven (a voucher does not prove the UTIL sender)', async () => {
    const w = await utilWallet(sw, 0n, UTIL_1M)
    const hash = await transferUtil(sw.chain, w.privateKey, recipient(), UTIL_1M)
    const payload = await signChallenge(w, await challengeOf(`${svc.url}${PATH}`))
    const asBatch = { ...payload, accepted: { ...payload.accepted, scheme: 'batch-settlement' } }
    const res = await fetch(`${svc.url}${PATH}`, {
      headers: { 'PAYMENT-SIGNATURE': encodePayment(asBatch), 'X-UTIL-TOPUP': hash },
    })
    expect(res.status).toBe(400)
    expect(errorOf(await res.json())?.code).toBe('topup_unproven')
    expect((await creditOf(svc.url, w.account.address)).topUps).toEqual([])
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

  test('attack: one top-up hash sent 50 times at once to both instances is credited once', async () => {
    const w = await utilWallet(sw, 0n, UTIL_1M)
    const hash = await transferUtil(sw.chain, w.privateKey, a.config.payments.creditRecipient, UTIL_1M)
    const calls = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        paidFetch(w, { 'X-UTIL-TOPUP': hash })(`${(i % 2 ? a : b).url}${PATH}`).then(async (r) => ({
          status: r.status,
          code: errorOf(await r.json())?.code,
        })),
      ),
    )
    expect(calls.filter((c) => c.status === 200)).toHaveLength(1)
    expect(calls.filter((c) => c.code === 'topup_used')).toHaveLength(49)
    const statement = await creditOf(b.url, w.account.address)
    expect(statement.topUps).toHaveLength(1)
    const credited = BigInt(Math.round((statement.topUps[0]?.creditedUsd as number) * 1e6))
    expect(BigInt(statement.balanceAtomic)).toBe(credited - HALF)
    expect(statement.debits).toHaveLength(1)
  })

  test('attack: 200 concurrent credit calls against a balance that covers N of them succeed exactly N times', async () => {
    // ~300 UTIL ≈ $0.03: about 60 calls at $0.0005. The wallet holds no USDC, so a call the credit does not
    // cover cannot fall back to USDC and is refused.
    const w = await utilWallet(sw, 0n, 300n * 10n ** 18n)
    const hash = await transferUtil(
      sw.chain,
      w.privateKey,
      a.config.payments.creditRecipient,
      300n * 10n ** 18n,
    )
    const topUp = await creditOf(a.url, w.account.address)
    expect(topUp.topUps).toEqual([])
    expect((await paidFetch(w, { 'X-UTIL-TOPUP': hash })(`${a.url}${PATH}`)).status).toBe(200)
    const start = BigInt((await creditOf(a.url, w.account.address)).balanceAtomic)
    const n = Number(start / HALF)
    expect(n).toBeGreaterThan(20)
    expect(n).toBeLessThan(200)

    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        paidFetch(w)(`${(i % 2 ? a : b).url}${PATH}`).then(async (r) => {
          await r.body?.cancel()
          return r.status
        }),
      ),
    )
    expect(statuses.filter((s) => s === 200)).toHaveLength(n)
    expect(statuses.filter((s) => s !== 200).every((s) => s === 402)).toBe(true)
    const after = await creditOf(b.url, w.account.address)
    expect(BigInt(after.balanceAtomic)).toBe(start - BigInt(n) * HALF)
    expect(BigInt(after.balanceAtomic)).toBeGreaterThanOrEqual(0n)
    expect(BigInt(after.balanceAtomic)).toBeLessThan(HALF)
    expect(await sw.usdcBalance(w.account.address)).toBe(0n)
  })

  test('attack: a credit-paid authorization replayed, to the other instance and to the USDC rail, is refused and moves nothing', async () => {
    const w = await utilWallet(sw, 1_000_000n, UTIL_1M)
    const hash = await transferUtil(sw.chain, w.privateKey, a.config.payments.creditRecipient, UTIL_1M)
    const { res, payload } = await signedCall(w, `${a.url}${PATH}`, { 'X-UTIL-TOPUP': hash })
    expect(res.status).toBe(200)
    const balance = (await creditOf(a.url, w.account.address)).balanceAtomic
    const header = encodePayment(payload)
    for (const headers of [{}, { 'X-UTIL-CREDIT': 'off' }] as Record<string, string>[]) {
      for (const instance of [a, b]) {
        const replay = await fetch(`${instance.url}${PATH}`, {
          headers: { 'PAYMENT-SIGNATURE': header, ...headers },
        })
        expect(replay.status).toBe(402)
        expect(errorOf(await replay.json())?.code).toBe('payment_replayed')
      }
    }
    expect((await creditOf(b.url, w.account.address)).balanceAtomic).toBe(balance)
    expect(await sw.usdcBalance(w.account.address)).toBe(1_000_000n)
    expect(await authorizationUsed(sw.chain, w.account.address, nonceOf(payload))).toBe(false)
  })
})

describe('the reconciler', () => {
  test('attack: a credit-paid authorization submitted onchain by a third party restores the debit; a cancelled one does not', async () => {
    const w = await utilWallet(sw, 1_000_000n, UTIL_1M)
    const hash = await transferUtil(sw.chain, w.privateKey, recipient(), UTIL_1M)
    const paid = await signedCall(w, `${svc.url}${PATH}`, { 'X-UTIL-TOPUP': hash })
    expect(paid.res.status).toBe(200)
    const cancelled = await signedCall(w, `${svc.url}${PATH}`, {})
    expect(cancelled.res.status).toBe(200)
    const statement = await creditOf(svc.url, w.account.address)
    const afterTwo = BigInt(statement.balanceAtomic)
    expect(statement.debits.map((d) => d.status)).toEqual(['spent', 'spent'])

    // A third party submits the first authorization; the payer cancels the second.
    const auth = paid.payload.payload as { authorization: SignedAuthorization; signature: Hex }
    await submitAuthorization(
      sw.chain,
      demoAccounts[6]?.privateKey as Hex,
      auth.authorization,
      auth.signature,
    )
    await sendTx(
      sw.chain,
      walletOf(sw, w.privateKey),
      await cancelAuthorization(privateKeyToAccount(w.privateKey), nonceOf(cancelled.payload)),
    )
    expect(await sw.usdcBalance(w.account.address)).toBe(1_000_000n - PRICE)

    await svc.services.reconcile()
    const after = await creditOf(svc.url, w.account.address)
    expect(BigInt(after.balanceAtomic)).toBe(afterTwo + HALF)
    expect(after.debits.map((d) => d.status)).toEqual(['spent', 'restored'])
    // Another round changes nothing: a restore is counted once.
    await svc.services.reconcile()
    expect((await creditOf(svc.url, w.account.address)).balanceAtomic).toBe(after.balanceAtomic)
  })

  test('attack: a debit left held by an instance that stopped mid-call is given back by a later round, once', async () => {
    let offsetMs = 0
    const one = await sw.instance({}, { clock: () => Date.now() + offsetMs })
    const w = await utilWallet(sw, 0n, UTIL_1M)
    const hash = await transferUtil(sw.chain, w.privateKey, one.config.payments.creditRecipient, UTIL_1M)
    expect((await paidFetch(w, { 'X-UTIL-TOPUP': hash })(`${one.url}${PATH}`)).status).toBe(200)
    const before = BigInt((await creditOf(one.url, w.account.address)).balanceAtomic)
    // What an instance killed between the debit and the handler's outcome leaves in the book.
    const held = await one.services.deps.creditBook.hold({
      wallet: w.account.address,
      nonce: keccak256(toHex(`held-${Date.now()}`)),
      route: 'GET /v1/prices',
      amount: HALF,
      validBefore: Math.floor(Date.now() / 1000) + 100,
    })
    expect(held.kind).toBe('held')
    expect(BigInt((await creditOf(one.url, w.account.address)).balanceAtomic)).toBe(before - HALF)
    await one.services.reconcile()
    expect(BigInt((await creditOf(one.url, w.account.address)).balanceAtomic)).toBe(before - HALF)
    offsetMs = 6 * 60 * 1000
    await one.services.reconcile()
    await one.services.reconcile()
    const after = await creditOf(one.url, w.account.address)
    expect(BigInt(after.balanceAtomic)).toBe(before)
    expect(after.debits[0]?.status).toBe('released')
    await one.stop()
  })
})
