import type { PaymentPayload } from '@x402/core/types'
import { wrapFetchWithPayment } from '@x402/fetch'
import { type Address, type Hex, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { LoanSupplyCollateralAction } from '../../src/builders/loan/loanSupplyCollateral.js'
import type { BuilderEnvelope } from '../../src/builders/txStep.js'
import { DEVNET_LENDING_CATALOG } from '../../src/chain/lendingCatalog.js'
import { TOKENIZED_STOCKS } from '../../src/chain/tokenizedStocks.js'
import { ownerWallet } from '../helpers/builderCalls.js'
import { errorOf } from '../helpers/errorOf.js'
import { eventually } from '../helpers/eventually.js'
import {
  faultyRpcProxy,
  type RpcAnswer,
  type RpcCall,
  type RpcProxy,
  type Rule,
} from '../helpers/faultyRpcProxy.js'
import {
  challengeOf,
  encodePayment,
  type Instance,
  type ServiceWorld,
  signChallenge,
  useInstance,
  useWorld,
} from '../helpers/serviceWorld.js'

// The chain client's JSON-RPC batching and the builders' block-pinned simulation, attacked through a
// JSON-RPC proxy in front of the devnet's anvil that can answer a batch as a faulty or hostile provider
// would: one error object for the whole batch (a rate limit, a provider refusing batches), an array with
// an answer missing, an error for one call of the batch (a pinned block the node cannot serve). The money
// rule: a call is charged once when served a true answer, and a fault is never charged (no USDC moved, no
// ledger row). Tests run in order: instances share one relayer key.

const MARKET = DEVNET_LENDING_CATALOG.morphoMarkets[0] as Hex // WETH/USDC 86%
/** One stock token's address as it appears in the catalog's multicall calldata. */
const AAPL = TOKENIZED_STOCKS.AAPLc.token.slice(2).toLowerCase()
const DATA_PRICE = 1_000n // $0.001 (/v1/stocks)
const BUILDER_PRICE = 10_000n // $0.01 (/v1/tx/*)
const FUNDED = 1_000_000n

const sw = useWorld()
const svc = useInstance(sw)
let proxy: RpcProxy

beforeAll(async () => {
  proxy = await faultyRpcProxy(sw.world.rpcUrl)
}, 120_000)

afterAll(async () => {
  await proxy?.close()
})

const callsOf = (body: RpcCall | RpcCall[]) => (Array.isArray(body) ? body : [body])
/** An eth_call whose calldata carries `needle` (a lowercase address without 0x). */
const callCarrying = (needle: string) => (c: RpcCall) =>
  c.method === 'eth_call' &&
  JSON.stringify(c.params ?? [])
    .toLowerCase()
    .includes(needle)
/** The answer array without the answers to `drop` (a provider that left some out). */
const without = (answer: RpcAnswer | RpcAnswer[], drop: readonly RpcCall[]) =>
  (Array.isArray(answer) ? answer : [answer]).filter((a) => !drop.some((d) => d.id === a.id))

type Wallet = Awaited<ReturnType<ServiceWorld['freshWallet']>>

interface Outcome {
  status: number
  code: string | undefined
  /** Atomic USDC the payer lost on the call. */
  charged: bigint
  rows: number
  text: string
}

/** One call paid with the official client; what it answered, cost and left in the ledger. */
async function paidCall(on: Instance, who: Wallet, path: string, body?: unknown): Promise<Outcome> {
  const before = await sw.usdcBalance(who.account.address)
  const pay = wrapFetchWithPayment(fetch, who.client)
  const res = await pay(`${on.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
  const text = await res.text()
  let code: string | undefined
  try {
    code = errorOf(JSON.parse(text))?.code
  } catch {
    code = undefined
  }
  return {
    status: res.status,
    code,
    charged: before - (await sw.usdcBalance(who.account.address)),
    rows: (await on.services.deps.ledger.byPayer(who.account.address)).length,
    text: text.slice(0, 300),
  }
}

const refusal = (o: Outcome) => ({ status: o.status, code: o.code, charged: o.charged, rows: o.rows })

async function payRaw(url: string, payload: PaymentPayload) {
  const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
  const json = (await res.json()) as { error?: { code?: string } }
  return { status: res.status, code: errorOf(json)?.code }
}

/** Waits until the payer's rows are exactly `n` settled, served ones of `amount` each. */
async function expectSettledRows(on: Instance, payer: Address, n: number, amount: bigint) {
  const rows = await eventually(async () => {
    const r = await on.services.deps.ledger.byPayer(payer)
    expect(r.map((x) => x.status)).toEqual(Array.from({ length: n }, () => 'settled'))
    return r
  })
  for (const row of rows) {
    expect(BigInt(row.amount)).toBe(amount)
    expect(row.served).toBe(true)
  }
}

const supplyBody = (owner: Address) => ({
  marketId: MARKET,
  assets: parseUnits('1', 18).toString(),
  owner,
})

describe('JSON-RPC batching and block-pinned simulations under a faulty RPC', () => {
  test('attack: a stocks catalog read whose batch the RPC answers with one rate-limit error, or with its answer missing, is a 502 that moves no USDC and opens no row (as unbatched)', async () => {
    const stocksRead = callCarrying(AAPL)
    const rateLimit = { code: -32005, message: 'rate limit exceeded' }
    const outcome = async (batchSize: string, rule: Rule): Promise<Outcome> => {
      const on = await sw.instance({ RPC_URL: proxy.url, RPC_BATCH_SIZE: batchSize })
      const who = await sw.freshWallet(FUNDED)
      proxy.set(rule)
      try {
        return await paidCall(on, who, '/v1/stocks')
      } finally {
        proxy.set(null)
        await on.stop()
      }
    }
    // The provider rate-limits the request carrying the catalog's multicall: HTTP 429 and one JSON-RPC
    // error (for a batch, `id: null`: the provider could not answer any of its calls).
    const limited: Rule = (body) =>
      callsOf(body).some(stocksRead)
        ? {
            answer: {
              status: 429,
              body: { jsonrpc: '2.0', id: Array.isArray(body) ? null : body.id, error: rateLimit },
            },
          }
        : null
    // The provider answers the batch but leaves out the catalog's answer.
    const truncated: Rule = (body) =>
      Array.isArray(body) && body.some(stocksRead)
        ? { rewrite: (answer) => without(answer, body.filter(stocksRead)) }
        : null
    const unbatched = await outcome('0', limited)
    const batched = await outcome('20', limited)
    const missing = await outcome('20', truncated)
    const fault = { status: 502, code: 'upstream_unavailable', charged: 0n, rows: 0 }
    expect(
      { unbatched: refusal(unbatched), batched: refusal(batched), missing: refusal(missing) },
      `batched: ${batched.text}\nmissing: ${missing.text}`,
    ).toEqual({ unbatched: fault, batched: fault, missing: fault })
  }, 120_000)

  test('attack: a batch answered without the payer’s balance read, or without the bundle simulation, is refused uncharged (503 at the gate, 502 in the builder)', async () => {
    const on = await sw.instance({ RPC_URL: proxy.url })
    try {
      const me = ownerWallet(sw, 6).account.address
      // At the gate: the funds reservation's balanceOf(payer) goes unanswered.
      const gate = await sw.freshWallet(FUNDED)
      const balanceRead = callCarrying(gate.account.address.slice(2).toLowerCase())
      proxy.set((body) =>
        Array.isArray(body) && body.some(balanceRead)
          ? { rewrite: (answer) => without(answer, body.filter(balanceRead)) }
          : null,
      )
      const atGate = await paidCall(on, gate, '/v1/tx/loan/supply-collateral', supplyBody(me))
      // In the builder: the eth_simulateV1 on the pinned block goes unanswered.
      const isSimulation = (c: RpcCall) => c.method === 'eth_simulateV1'
      proxy.set((body) =>
        Array.isArray(body) && body.some(isSimulation)
          ? { rewrite: (answer) => without(answer, body.filter(isSimulation)) }
          : null,
      )
      const builder = await sw.freshWallet(FUNDED)
      const inBuilder = await paidCall(on, builder, '/v1/tx/loan/supply-collateral', supplyBody(me))
      proxy.set(null)
      expect(
        { atGate: refusal(atGate), inBuilder: refusal(inBuilder) },
        `${atGate.text}\n${inBuilder.text}`,
      ).toEqual({
        atGate: { status: 503, code: 'payment_facilitator_unavailable', charged: 0n, rows: 0 },
        inBuilder: { status: 502, code: 'upstream_unavailable', charged: 0n, rows: 0 },
      })
      // The same payer, the RPC healthy again: served and charged exactly once.
      const served = await paidCall(on, builder, '/v1/tx/loan/supply-collateral', supplyBody(me))
      expect(served.status, served.text).toBe(200)
      expect(served.charged).toBe(BUILDER_PRICE)
      await expectSettledRows(on, builder.account.address, 1, BUILDER_PRICE)
    } finally {
      proxy.set(null)
      await on.stop()
    }
  }, 120_000)

  test('attack: a loan builder pinned to a block the RPC cannot serve (header not found for that block, inside a good batch) is a 502, uncharged, with no row and no relayer transaction', async () => {
    const on = await sw.instance({ RPC_URL: proxy.url })
    try {
      const relayer = on.services.deps.facilitator.relayer as Address
      const relayerNonce = await sw.chain.getTransactionCount({ address: relayer })
      const pinned: unknown[] = []
      const atPinnedBlock = (c: RpcCall) => c.method === 'eth_simulateV1' && c.params?.[1] !== 'latest'
      proxy.set((body) => {
        const hits = callsOf(body).filter(atPinnedBlock)
        if (hits.length === 0) return null
        for (const h of hits) pinned.push(h.params?.[1])
        return {
          rewrite: (answer) => {
            const answers = Array.isArray(answer) ? answer : [answer]
            const out = answers.map((a) =>
              hits.some((h) => h.id === a.id)
                ? { jsonrpc: '2.0', id: a.id, error: { code: -32000, message: 'header not found' } }
                : a,
            )
            return Array.isArray(answer) ? out : out[0]
          },
        }
      })
      const who = await sw.freshWallet(FUNDED)
      const me = ownerWallet(sw, 6).account.address
      const answer = await paidCall(on, who, '/v1/tx/loan/supply-collateral', supplyBody(me))
      proxy.set(null)
      expect(refusal(answer), answer.text).toEqual({
        status: 502,
        code: 'upstream_unavailable',
        charged: 0n,
        rows: 0,
      })
      // It was the pinned block that was asked for: a block number at or below the head, not a tag.
      const head = await sw.chain.getBlockNumber()
      expect(pinned.length).toBeGreaterThan(0)
      for (const p of pinned) {
        expect(typeof p === 'string' && p.startsWith('0x')).toBe(true)
        expect(BigInt(p as string)).toBeLessThanOrEqual(head)
      }
      expect(await sw.chain.getTransactionCount({ address: relayer })).toBe(relayerNonce)
    } finally {
      proxy.set(null)
      await on.stop()
    }
  }, 120_000)

  test('attack: concurrent paid loan builds while blocks land are each simulated on the block their debt was accrued to, and each charged exactly once', async () => {
    const n = 4
    const who = await sw.freshWallet(BigInt(n) * BUILDER_PRICE)
    const me = ownerWallet(sw, 6).account.address
    const mine = async () => {
      for (let i = 0; i < 6; i++) {
        await sw.chain.request({ method: 'evm_mine', params: [] } as unknown as Parameters<
          typeof sw.chain.request
        >[0])
      }
    }
    const startBlock = await sw.chain.getBlockNumber()
    const [answers] = await Promise.all([
      Promise.all(
        Array.from({ length: n }, async () => {
          const pay = wrapFetchWithPayment(fetch, who.client)
          const res = await pay(`${svc.url}/v1/tx/loan/supply-collateral`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(supplyBody(me)),
          })
          return {
            status: res.status,
            body: (await res.json()) as BuilderEnvelope<LoanSupplyCollateralAction>,
          }
        }),
      ),
      mine(),
    ])
    expect(
      answers.map((a) => a.status),
      JSON.stringify(answers.map((a) => a.body).filter((b) => !('steps' in b))),
    ).toEqual(Array(n).fill(200))
    expect(await sw.chain.getBlockNumber()).toBeGreaterThanOrEqual(startBlock + 6n)
    for (const a of answers) {
      const block = await sw.chain.getBlock({ blockNumber: BigInt(a.body.simulation.blockNumber) })
      expect(Number(block.timestamp), `block ${block.number}`).toBe(a.body.action.accruedTo)
      expect(a.body.simulation.balanceChanges[0]?.delta).toBe((-parseUnits('1', 18)).toString())
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(0n)
    await expectSettledRows(svc, who.account.address, n, BUILDER_PRICE)
  }, 120_000)

  test('attack: a payer holding two /v1/stocks calls fires five at once on an instance batching two requests per round trip: two served and charged, three refused', async () => {
    const on = await sw.instance({ RPC_BATCH_SIZE: '2' })
    try {
      const who = await sw.freshWallet(2n * DATA_PRICE)
      const url = `${on.url}/v1/stocks`
      const challenge = await challengeOf(url)
      const payloads = await Promise.all(Array.from({ length: 5 }, () => signChallenge(who, challenge)))
      const answers = await Promise.all(payloads.map((p) => payRaw(url, p)))
      expect(answers.map((a) => a.status).sort(), JSON.stringify(answers)).toEqual([200, 200, 402, 402, 402])
      for (const a of answers.filter((x) => x.status === 402))
        expect(a.code).toBe('payment_insufficient_funds')
      expect(await sw.usdcBalance(who.account.address)).toBe(0n)
      await expectSettledRows(on, who.account.address, 2, DATA_PRICE)
    } finally {
      await on.stop()
    }
  }, 120_000)

  test('attack: an RPC refusing every batch (one Invalid Request error object, HTTP 200) leaves paid reads and builders unserved and uncharged, and the relayer silent', async () => {
    const on = await sw.instance({ RPC_URL: proxy.url })
    try {
      const relayer = on.services.deps.facilitator.relayer as Address
      const relayerNonce = await sw.chain.getTransactionCount({ address: relayer })
      proxy.set((body) =>
        Array.isArray(body)
          ? {
              answer: {
                status: 200,
                body: {
                  jsonrpc: '2.0',
                  id: null,
                  error: { code: -32600, message: 'batch requests are not supported' },
                },
              },
            }
          : null,
      )
      const who = await sw.freshWallet(FUNDED)
      const me = ownerWallet(sw, 6).account.address
      const read = await paidCall(on, who, '/v1/stocks')
      const build = await paidCall(on, who, '/v1/tx/loan/supply-collateral', supplyBody(me))
      proxy.set(null)
      for (const o of [read, build]) {
        expect(o.status, o.text).toBeGreaterThanOrEqual(502)
        expect(o.status, o.text).toBeLessThanOrEqual(503)
        expect(o.charged).toBe(0n)
        expect(o.rows).toBe(0)
      }
      expect(await sw.usdcBalance(who.account.address)).toBe(FUNDED)
      expect(await sw.chain.getTransactionCount({ address: relayer })).toBe(relayerNonce)
    } finally {
      proxy.set(null)
      await on.stop()
    }
  }, 120_000)
})
