import type { PaymentRequirements } from '@x402/core/types'
import { wrapFetchWithPayment } from '@x402/fetch'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { faultyRpcProxy, type RpcCall, type RpcProxy } from '../helpers/faultyRpcProxy.js'
import { challengeOf, type Instance, useWorld } from '../helpers/serviceWorld.js'
import { channelOf, depositAs, voucherHeader } from '../helpers/voucherKit.js'

// Issue 37, items 3 and 4, on the batch-settlement rail: the paid ceiling is the proven wallet's (a channel
// naming a victim as payer, signed by the attacker's key, spent the victim's), and the unpaid ceiling is
// checked before a voucher reaches the chain (vouchers for unknown channels each cost the node an eth_call,
// answered 429 or not). One instance behind a trusted proxy (each test its own client address) whose RPC
// goes through a proxy that counts the node's eth_calls.
const sw = useWorld()
const PAID = 3
const UNPAID = 5
const PRICES = '/v1/prices?symbols=ETH'
let proxy: RpcProxy
let svc: Instance
let ethCalls = 0

beforeAll(async () => {
  proxy = await faultyRpcProxy(sw.world.rpcUrl)
  proxy.set((body) => {
    ethCalls += (Array.isArray(body) ? body : [body]).filter((c: RpcCall) => c.method === 'eth_call').length
    return null
  })
  svc = await sw.instance({
    RPC_URL: proxy.url,
    TRUST_PROXY: 'true',
    RATE_LIMIT_PAID: String(PAID),
    RATE_LIMIT_UNPAID: String(UNPAID),
  })
}, 60_000)
afterAll(async () => {
  await svc?.stop()
  await proxy?.close()
})

/** The batch-settlement entry of the route's challenge, as `client` sees it. */
async function batchTerms(url: string, client: string): Promise<PaymentRequirements> {
  const challenge = await challengeOf(url, { headers: { 'x-forwarded-for': client } })
  const terms = challenge.accepts.find((r) => r.scheme === 'batch-settlement')
  if (terms === undefined) throw new Error('no batch-settlement entry')
  return terms
}

describe('batch-settlement ceilings', () => {
  test('attack: a channel naming a victim as payer, signed by the attacker, does not spend the victim’s paid ceiling', async () => {
    const victim = await sw.freshWallet(100_000n)
    const attacker = await sw.freshWallet(1_000_000n, 10n ** 17n)
    const client = '203.0.113.71'
    const terms = await batchTerms(`${svc.url}${PRICES}`, client)
    // 0.01 USDC into a channel naming the victim, through the attacker's own collector.
    const channelConfig = channelOf(terms, victim.account.address, attacker.account.address)
    await depositAs(sw, attacker.privateKey, channelConfig, 10_000n)

    // One voucher, sent again and again with a bad query: each a free 400.
    const header = await voucherHeader(sw.chain, terms, channelConfig, attacker.privateKey)
    const statuses: number[] = []
    for (let i = 0; i < 3 * PAID; i++) {
      const res = await fetch(`${svc.url}/v1/prices?symbols=`, {
        headers: { 'PAYMENT-SIGNATURE': header, 'x-forwarded-for': client },
      })
      statuses.push(res.status)
      await res.body?.cancel()
    }
    expect(
      statuses.every((s) => s === 400 || s === 429),
      JSON.stringify(statuses),
    ).toBe(true)

    // The victim's own payment, from its own address, is served and charged once.
    const before = await sw.usdcBalance(victim.account.address)
    const paid = await wrapFetchWithPayment(fetch, victim.client)(`${svc.url}${PRICES}`, {
      headers: { 'x-forwarded-for': '203.0.113.72' },
    })
    expect(paid.status, await paid.clone().text()).toBe(200)
    await paid.body?.cancel()
    expect(before - (await sw.usdcBalance(victim.account.address))).toBe(BigInt(terms.amount))
  })

  test('attack: vouchers for channels the chain never saw stop at the unpaid ceiling before they reach the node', async () => {
    const client = '203.0.113.81'
    const terms = await batchTerms(`${svc.url}${PRICES}`, client)
    const answers: { status: number; ethCalls: number }[] = []
    for (let i = 0; i < 3 * UNPAID; i++) {
      const key = generatePrivateKey()
      const who = privateKeyToAccount(key).address
      const header = await voucherHeader(sw.chain, terms, channelOf(terms, who, who), key)
      const before = ethCalls
      const res = await fetch(`${svc.url}${PRICES}`, {
        headers: { 'PAYMENT-SIGNATURE': header, 'x-forwarded-for': client },
      })
      await res.body?.cancel()
      answers.push({ status: res.status, ethCalls: ethCalls - before })
    }
    const limited = answers.filter((a) => a.status === 429)
    // The ceiling holds (the challenge above spent one of its calls), and none of the refused reached the node.
    expect(limited.length, JSON.stringify(answers)).toBeGreaterThanOrEqual(3 * UNPAID - UNPAID)
    expect(
      limited.map((a) => a.ethCalls),
      JSON.stringify(answers),
    ).toEqual(limited.map(() => 0))
    for (const a of answers.filter((x) => x.status !== 429)) expect(a.status).toBe(402)
  })
})
