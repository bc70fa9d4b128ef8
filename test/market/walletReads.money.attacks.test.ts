import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { PaymentPayload } from '@x402/core/types'
import { wrapFetchWithPayment } from '@x402/fetch'
import { type Address, decodeFunctionData, getAddress, type Hex, parseAbi } from 'viem'
import { afterAll, describe, expect, test } from 'vitest'
import { USDC } from '../../src/chain/network.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { errorOf } from '../helpers/errorOf.js'
import { eventually } from '../helpers/eventually.js'
import { challengeOf, encodePayment, signChallenge, useInstance, useWorld } from '../helpers/serviceWorld.js'

// Money attacks on the paid wallet reads (issue 14): a payer holding one call's price racing three, a
// replayed authorization, and a handler failing after the payment verified. Each asserts the payer's
// USDC on the chain and the ledger rows.

const DEMO = getAddress(demoAccounts[1]?.address as string)
const DATA_PRICE = 1_000n
const ALPHA_PRICE = 10_000n

const sw = useWorld()
const svc = useInstance(sw)

const servers: Server[] = []
afterAll(async () => {
  for (const s of servers) await new Promise((done) => s.close(done))
})

interface Answer {
  status: number
  code: string | undefined
  headers: Headers
}
async function pay(url: string, payload: PaymentPayload): Promise<Answer> {
  const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
  const text = await res.text()
  let code: string | undefined
  try {
    code = errorOf(JSON.parse(text))?.code
  } catch {
    code = undefined
  }
  return { status: res.status, code, headers: res.headers }
}

const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11'
const AGGREGATE3 = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
])

/** Whether a JSON-RPC request only touches USDC (what the payment gate and relayer need). */
function paymentOnly(req: { method: string; params?: unknown[] }): boolean {
  if (req.method === 'eth_getLogs') return false
  if (req.method !== 'eth_call') return true
  const call = req.params?.[0] as { to?: string; data?: Hex; input?: Hex } | undefined
  const to = call?.to?.toLowerCase()
  if (to === USDC.toLowerCase()) return true
  if (to !== MULTICALL3.toLowerCase()) return false
  try {
    const { args } = decodeFunctionData({ abi: AGGREGATE3, data: (call?.data ?? call?.input) as Hex })
    return args[0].every((c) => c.target.toLowerCase() === USDC.toLowerCase())
  } catch {
    return false
  }
}

/**
 * An RPC in front of the devnet answering only what touches USDC (balances, the settlement): every
 * position source of the handler fails, while the payment still verifies and could settle.
 */
async function usdcOnlyRpc(): Promise<{ url: string; seen: { usdc: number; refused: number } }> {
  const upstream = sw.world.rpcUrl
  const seen = { usdc: 0, refused: 0 }
  const one = async (req: { id: unknown; method: string; params?: unknown[] }) => {
    if (req.method === 'eth_call' && paymentOnly(req)) seen.usdc++
    if (!paymentOnly(req)) seen.refused++
    if (!paymentOnly(req))
      return { jsonrpc: '2.0', id: req.id, error: { code: -32000, message: 'refused by the test RPC' } }
    const res = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(req),
    })
    return res.json()
  }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', async () => {
      const parsed = JSON.parse(body) as Parameters<typeof one>[0] | Parameters<typeof one>[0][]
      const out = Array.isArray(parsed) ? await Promise.all(parsed.map(one)) : await one(parsed)
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(out))
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  servers.push(server)
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

const settledRows = async (payer: Address) =>
  (await svc.services.deps.ledger.byPayer(payer)).filter((r) => r.status === 'settled')

describe('money attacks on the wallet reads', () => {
  test('attack: a payer holding exactly one loan analysis fires three at once: one served and charged, two refused, nothing else moved', async () => {
    const who = await sw.freshWallet(ALPHA_PRICE)
    const url = `${svc.url}/v1/loan/analysis/${DEMO}`
    const challenge = await challengeOf(url)
    const payloads = await Promise.all([0, 1, 2].map(() => signChallenge(who, challenge)))
    const answers = await Promise.all(payloads.map((p) => pay(url, p)))
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses, JSON.stringify(answers.map((a) => a.code))).toEqual([200, 402, 402])
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.code).toBe('payment_insufficient_funds')
    expect(await sw.usdcBalance(who.account.address)).toBe(0n)
    const rows = await eventually(async () => {
      const r = await svc.services.deps.ledger.byPayer(who.account.address)
      expect(r.map((x) => x.status)).toEqual(['settled'])
      return r
    })
    expect(BigInt(rows[0]?.amount ?? 0)).toBe(ALPHA_PRICE)
    expect(rows[0]?.served).toBe(true)
  })

  test('attack: the same PAYMENT-SIGNATURE for /v1/positions sent twice is served once and charged once', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const url = `${svc.url}/v1/positions/${DEMO}`
    const payload = await signChallenge(who, await challengeOf(url))
    const first = await pay(url, payload)
    expect(first.status).toBe(200)
    const again = await pay(url, payload)
    expect(again.status).toBe(402)
    expect(again.code).toBe('payment_replayed')
    expect(again.headers.get('payment-response')).toBeNull()
    // And the same signature on another wallet read (same price) is refused the same way.
    const elsewhere = await pay(`${svc.url}/v1/portfolio/${DEMO}`, payload)
    expect(elsewhere.status, elsewhere.code).toBe(402)
    expect(elsewhere.code?.startsWith('payment_'), elsewhere.code).toBe(true)
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - DATA_PRICE)
    await eventually(async () =>
      expect((await svc.services.deps.ledger.byPayer(who.account.address)).map((r) => r.status)).toEqual([
        'settled',
      ]),
    )
    expect(await settledRows(who.account.address)).toHaveLength(1)
  })

  test('attack: positions whose every source fails after the payment verified is a 502, charges nothing, settles no row', async () => {
    const rpc = await usdcOnlyRpc()
    const inst = await sw.instance({ RPC_URL: rpc.url })
    const who = await sw.freshWallet(1_000_000n)
    const relayer = inst.services.deps.facilitator.relayer as Address
    const relayerNonce = await sw.chain.getTransactionCount({ address: relayer })
    const before = await sw.usdcBalance(who.account.address)
    const res = await wrapFetchWithPayment(fetch, who.client)(`${inst.url}/v1/positions/${DEMO}`)
    const body = (await res.json()) as { error?: { code?: string } }
    expect(res.status, JSON.stringify(body)).toBe(502)
    expect(body.error?.code).toBe('upstream_unavailable')
    expect(res.headers.get('payment-response')).toBeNull()
    // The gate read the payer's USDC through this RPC (the payment verified) and the handler then ran
    // and failed on every source: nothing moved, the relayer sent nothing.
    expect(rpc.seen.usdc).toBeGreaterThan(0)
    expect(rpc.seen.refused).toBeGreaterThan(0)
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
    expect(await sw.chain.getTransactionCount({ address: relayer })).toBe(relayerNonce)
    const rows = await inst.services.deps.ledger.byPayer(who.account.address)
    // Rows are opened only after a successful handler: none at all, so none settled or pending.
    expect(rows).toEqual([])
  })
})
