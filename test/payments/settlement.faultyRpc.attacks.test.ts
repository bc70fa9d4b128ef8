import { decodePaymentResponseHeader } from '@x402/core/http'
import type { PaymentPayload } from '@x402/core/types'
import { createWalletClient, type Hex, http, parseAbi, parseSignature } from 'viem'
import { base } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { USDC } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import type { PaymentRecord } from '../../src/store/ledger.js'
import { cancelAuthorization } from '../helpers/attackKit.js'
import { RECEIPT } from '../helpers/chainChecks.js'
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
  useWorld,
} from '../helpers/serviceWorld.js'

// The settlement and reconciliation money path under a faulty or hostile RPC that answers the chain
// client's JSON-RPC batches. The built-in facilitator's wallet sends single requests; the service's read
// client (the gate's settlement check, the reconciler) sends batches: the proxy below tells them apart
// by the body's shape. The money rule: a payment that landed is settled exactly once, one that did not is
// never counted, and a row is never closed (or marked served) on data the RPC failed to give. Tests run
// in order: instances share one relayer key.

const PRICES = '/v1/prices?symbols=BTC'
const FUNDED = 1_000_000n
/** `authorizationState(address,bytes32)`: the settlement check's first contract read. */
const AUTHORIZATION_STATE = 'e94a0102'
const USDC_EIP3009 = parseAbi([
  'function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
])

const sw = useWorld()
let proxy: RpcProxy
let payTo: `0x${string}`

beforeAll(async () => {
  proxy = await faultyRpcProxy(sw.world.rpcUrl)
}, 120_000)

afterAll(async () => {
  await proxy?.close()
})

const RATE_LIMIT = { code: -32005, message: 'rate limit exceeded' }
const METHOD_NOT_FOUND = { code: -32601, message: 'the method eth_sendRawTransactionSync does not exist' }
const asList = (answer: RpcAnswer | RpcAnswer[]) => (Array.isArray(answer) ? answer : [answer])

/** A read the settlement check or the reconciler makes (never one the gate needs to admit a payment). */
const settlementRead = (c: RpcCall) =>
  ['eth_getTransactionReceipt', 'eth_getLogs', 'eth_blockNumber', 'eth_getBlockByNumber'].includes(
    c.method,
  ) ||
  (c.method === 'eth_call' &&
    JSON.stringify(c.params ?? [])
      .toLowerCase()
      .includes(AUTHORIZATION_STATE))

/**
 * This RPC lacks `eth_sendRawTransactionSync` (so the relayer falls back to polling receipts) and the
 * facilitator's own receipt polls (single requests) are rate-limited, so a settlement that lands is
 * served `settlement_pending`; batches holding a settlement read get `batch`'s treatment (or pass).
 */
function faults(batch: Rule | null): Rule {
  return (body) => {
    if (!Array.isArray(body)) {
      if (body.method === 'eth_sendRawTransactionSync') {
        return { answer: { status: 200, body: { jsonrpc: '2.0', id: body.id, error: METHOD_NOT_FOUND } } }
      }
      return body.method === 'eth_getTransactionReceipt'
        ? { answer: { status: 429, body: { jsonrpc: '2.0', id: body.id, error: RATE_LIMIT } } }
        : null
    }
    return batch?.(body) ?? null
  }
}
/** The whole batch answered with one error object (how RPCs rate-limit a batch). */
const oneErrorObject: Rule = (body) =>
  Array.isArray(body) && body.some(settlementRead)
    ? { answer: { status: 429, body: { jsonrpc: '2.0', id: null, error: RATE_LIMIT } } }
    : null
/** The batch answered with the settlement reads' answers left out. */
const answersMissing: Rule = (body) =>
  Array.isArray(body) && body.some(settlementRead)
    ? {
        rewrite: (answer) =>
          asList(answer).filter((a) => !body.some((c) => c.id === a.id && settlementRead(c))),
      }
    : null

type Wallet = Awaited<ReturnType<ServiceWorld['freshWallet']>>

interface Paid {
  status: number
  code: string | undefined
  transaction: string | undefined
  errorReason: string | undefined
}

async function payRaw(url: string, payload: PaymentPayload): Promise<Paid> {
  const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
  const text = await res.text()
  let code: string | undefined
  try {
    code = errorOf(JSON.parse(text))?.code
  } catch {
    code = undefined
  }
  const header = res.headers.get('payment-response')
  const receipt = header === null ? undefined : decodePaymentResponseHeader(header)
  return {
    status: res.status,
    code,
    transaction: receipt?.transaction,
    errorReason: receipt?.errorReason,
  }
}

const rowsOf = (on: Instance, who: Wallet) => on.services.deps.ledger.byPayer(who.account.address)
const only = (rows: PaymentRecord[]) => {
  expect(rows).toHaveLength(1)
  return rows[0] as PaymentRecord
}
const nonceOf = (p: PaymentPayload) => (p.payload.authorization as { nonce: Hex }).nonce
const amountOf = (p: PaymentPayload) => BigInt(p.accepted.amount)

/** Serves one call `settlement_pending` with its transfer mined onchain: its row pending with the hash. */
async function pendingPaid(on: Instance, who: Wallet) {
  const url = `${on.url}${PRICES}`
  const payload = await signChallenge(who, await challengeOf(url))
  const paid = await payRaw(url, payload)
  expect(paid, JSON.stringify(paid)).toMatchObject({ status: 200, errorReason: 'settlement_pending' })
  const tx = paid.transaction as Hex
  expect(tx).toMatch(/^0x[0-9a-f]{64}$/)
  // The transfer did land (read straight from anvil, not through the proxy).
  expect((await pollReceipt(sw.chain, tx, RECEIPT)).status).toBe('success')
  await eventually(async () =>
    expect(only(await rowsOf(on, who))).toMatchObject({ status: 'pending', txHash: tx, served: true }),
  )
  return { url, payload, tx }
}

/** The payer's wallet, sending its own transactions straight to anvil. */
const walletOf = (who: Wallet) =>
  createWalletClient({ account: who.account, chain: base, transport: http(sw.world.rpcUrl) })

describe('settlement and reconciliation under a faulty or hostile batching RPC', () => {
  test('attack: a settlement that landed while every confirmation read failed (single receipts rate-limited, batches answered with one error object, then with answers missing) stays pending, then settles exactly once when the RPC heals', async () => {
    const on = await sw.instance({ RPC_URL: proxy.url, RECONCILE_INTERVAL_MS: '600000' })
    try {
      payTo = on.config.payTo
      const who = await sw.freshWallet(FUNDED)
      const payToBefore = await sw.usdcBalance(payTo)
      let hits = 0
      const counted =
        (rule: Rule): Rule =>
        (body) => {
          const act = rule(body)
          if (act !== null) hits++
          return act
        }
      proxy.set(faults(counted(oneErrorObject)))
      const { url, payload, tx } = await pendingPaid(on, who)
      const price = amountOf(payload)
      expect(await sw.usdcBalance(who.account.address)).toBe(FUNDED - price)

      await on.services.reconcile()
      expect(only(await rowsOf(on, who))).toMatchObject({ status: 'pending', txHash: tx, served: true })
      proxy.set(faults(counted(answersMissing)))
      await on.services.reconcile()
      expect(only(await rowsOf(on, who))).toMatchObject({ status: 'pending', txHash: tx, served: true })
      expect(hits, 'the faults were on the reconciler’s path').toBeGreaterThan(0)

      proxy.set(null)
      await on.services.reconcile()
      await on.services.reconcile()
      expect(only(await rowsOf(on, who))).toMatchObject({
        status: 'settled',
        txHash: tx,
        served: true,
        amount: price,
        errorCode: null,
      })
      // The same authorization again: refused, nothing moves twice.
      const replay = await payRaw(url, payload)
      expect({ status: replay.status, code: replay.code }).toEqual({ status: 402, code: 'payment_replayed' })
      expect(await sw.usdcBalance(who.account.address)).toBe(FUNDED - price)
      expect(await sw.usdcBalance(payTo)).toBe(payToBefore + price)
      expect((await rowsOf(on, who)).length).toBe(1)
    } finally {
      proxy.set(null)
      await on.stop()
    }
  }, 120_000)

  test('attack: reconciling two pending rows while the RPC hides their receipts and answers the event search with a duplicated id, then short: both stay pending; answered reordered (ids intact), each settles on its own transaction', async () => {
    const on = await sw.instance({ RPC_URL: proxy.url, RECONCILE_INTERVAL_MS: '600000' })
    try {
      payTo = on.config.payTo
      const a = await sw.freshWallet(FUNDED)
      const b = await sw.freshWallet(FUNDED)
      const payToBefore = await sw.usdcBalance(payTo)
      proxy.set(faults(oneErrorObject))
      const first = await pendingPaid(on, a)
      const second = await pendingPaid(on, b)
      expect(first.tx).not.toBe(second.tx)
      const price = amountOf(first.payload)

      const isLogs = (c: RpcCall) => c.method === 'eth_getLogs'
      let logBatches = 0
      /** Receipts "not found" (a lagging node) and the pair of event searches rewritten by `mangle`. */
      const hostile =
        (mangle: (answers: RpcAnswer[]) => RpcAnswer[], hideReceipt: (hash: string) => boolean): Rule =>
        (body) => {
          if (!Array.isArray(body)) return null
          const receipts = body.filter(
            (c) => c.method === 'eth_getTransactionReceipt' && hideReceipt(String(c.params?.[0])),
          )
          const logs = body.filter(isLogs)
          if (receipts.length === 0 && logs.length < 2) return null
          if (logs.length >= 2) logBatches++
          return {
            rewrite: (answer) => {
              let out = asList(answer).map((x) =>
                receipts.some((r) => r.id === x.id) ? { jsonrpc: '2.0', id: x.id, result: null } : x,
              )
              if (logs.length >= 2) out = mangle(out)
              return out
            },
          }
        }
      const always = () => true
      const duplicated = (answers: RpcAnswer[]) =>
        answers.map((x, i) => (i === 0 ? x : { ...answers[0] })) as RpcAnswer[]
      const short = (answers: RpcAnswer[]) => answers.slice(0, -1)

      for (const mangle of [duplicated, short]) {
        proxy.set(hostile(mangle, always))
        await on.services.reconcile()
        expect(only(await rowsOf(on, a))).toMatchObject({ status: 'pending', txHash: first.tx, served: true })
        expect(only(await rowsOf(on, b))).toMatchObject({
          status: 'pending',
          txHash: second.tx,
          served: true,
        })
      }
      expect(logBatches, 'the event searches were answered mangled').toBeGreaterThan(0)

      // Reordered, ids intact: a valid answer. Each row's first receipt read is hidden, so it is decided
      // through the event search, and must settle on its own transaction.
      logBatches = 0
      const hidden = new Set<string>()
      proxy.set(
        hostile(
          (answers) => [...answers].reverse(),
          (hash) => {
            if (hidden.has(hash)) return false
            hidden.add(hash)
            return true
          },
        ),
      )
      await on.services.reconcile()
      proxy.set(null)
      expect(logBatches).toBeGreaterThan(0)
      expect(only(await rowsOf(on, a))).toMatchObject({ status: 'settled', txHash: first.tx, served: true })
      expect(only(await rowsOf(on, b))).toMatchObject({ status: 'settled', txHash: second.tx, served: true })
      expect(await sw.usdcBalance(a.account.address)).toBe(FUNDED - price)
      expect(await sw.usdcBalance(b.account.address)).toBe(FUNDED - price)
      expect(await sw.usdcBalance(payTo)).toBe(payToBefore + 2n * price)
    } finally {
      proxy.set(null)
      await on.stop()
    }
  }, 120_000)

  test('attack: an authorization the payer cancelled, paid with while the RPC refuses the settlement check’s batch: not served, nothing moves, and the row is not booked as served-unpaid; a fresh payment is then charged once', async () => {
    const on = await sw.instance({ RPC_URL: proxy.url, RECONCILE_INTERVAL_MS: '600000' })
    try {
      payTo = on.config.payTo
      const who = await sw.freshWallet(2n * FUNDED, 10n ** 16n)
      const url = `${on.url}${PRICES}`
      const payload = await signChallenge(who, await challengeOf(url))
      const price = amountOf(payload)
      const payToBefore = await sw.usdcBalance(payTo)
      const cancel = await walletOf(who).writeContract(
        await cancelAuthorization(who.account, nonceOf(payload)),
      )
      expect((await pollReceipt(sw.chain, cancel, RECEIPT)).status).toBe('success')

      proxy.set(oneErrorObject)
      const paid = await payRaw(url, payload)
      proxy.set(null)
      expect(paid.status, JSON.stringify(paid)).not.toBe(200)
      // Decided from the chain once it answers: the cancel, so nothing was paid and nothing served.
      await on.services.reconcile()
      const row = only(await rowsOf(on, who))
      expect(
        { status: row.status, served: row.served },
        `answered ${paid.status} ${paid.code}; row ${row.status} ${row.errorCode}`,
      ).toEqual({ status: 'failed', served: false })
      expect(await sw.usdcBalance(who.account.address)).toBe(2n * FUNDED)
      expect(await sw.usdcBalance(payTo)).toBe(payToBefore)

      const fresh = await payRaw(url, await signChallenge(who, await challengeOf(url)))
      expect(fresh.status).toBe(200)
      expect(await sw.usdcBalance(who.account.address)).toBe(2n * FUNDED - price)
      expect(await sw.usdcBalance(payTo)).toBe(payToBefore + price)
    } finally {
      proxy.set(null)
      await on.stop()
    }
  }, 120_000)

  test('attack: an authorization submitted onchain by someone else first, paid with while the RPC refuses the settlement check’s batch: charged exactly once, and served or booked unserved (owed a refund), never an unserved call booked as served', async () => {
    const on = await sw.instance({ RPC_URL: proxy.url, RECONCILE_INTERVAL_MS: '600000' })
    try {
      payTo = on.config.payTo
      const who = await sw.freshWallet(2n * FUNDED, 10n ** 16n)
      const url = `${on.url}${PRICES}`
      const payload = await signChallenge(who, await challengeOf(url))
      const price = amountOf(payload)
      const payToBefore = await sw.usdcBalance(payTo)
      const auth = payload.payload.authorization as {
        from: `0x${string}`
        to: `0x${string}`
        value: string
        validAfter: string
        validBefore: string
        nonce: Hex
      }
      const sig = parseSignature(payload.payload.signature as Hex)
      const frontRun = await walletOf(who).writeContract({
        address: USDC,
        abi: USDC_EIP3009,
        functionName: 'transferWithAuthorization',
        args: [
          auth.from,
          auth.to,
          BigInt(auth.value),
          BigInt(auth.validAfter),
          BigInt(auth.validBefore),
          auth.nonce,
          Number(sig.v),
          sig.r,
          sig.s,
        ],
      })
      expect((await pollReceipt(sw.chain, frontRun, RECEIPT)).status).toBe('success')

      proxy.set(oneErrorObject)
      const paid = await payRaw(url, payload)
      proxy.set(null)
      await on.services.reconcile()
      const row = only(await rowsOf(on, who))
      expect(
        { status: row.status, served: row.served, txHash: row.txHash },
        `answered ${paid.status} ${paid.code}`,
      ).toEqual({ status: 'settled', served: paid.status === 200, txHash: frontRun })
      // The replay is refused and nothing moves twice.
      const replay = await payRaw(url, payload)
      expect(replay.status).toBe(402)
      expect(await sw.usdcBalance(who.account.address)).toBe(2n * FUNDED - price)
      expect(await sw.usdcBalance(payTo)).toBe(payToBefore + price)
    } finally {
      proxy.set(null)
      await on.stop()
    }
  }, 120_000)

  test('attack: reconciling a paid pending row while a hostile RPC hides its receipt once and swaps the two event searches’ results (ids kept in order): the row is never closed on another request’s result, and settles on its transaction', async () => {
    const on = await sw.instance({ RPC_URL: proxy.url, RECONCILE_INTERVAL_MS: '600000' })
    try {
      payTo = on.config.payTo
      const who = await sw.freshWallet(FUNDED)
      const payToBefore = await sw.usdcBalance(payTo)
      proxy.set(faults(oneErrorObject))
      const { payload, tx } = await pendingPaid(on, who)
      const price = amountOf(payload)

      let swapped = 0
      const hidden = new Set<string>()
      proxy.set((body) => {
        if (!Array.isArray(body)) return null
        const receipts = body.filter(
          (c) => c.method === 'eth_getTransactionReceipt' && !hidden.has(String(c.params?.[0])),
        )
        for (const r of receipts) hidden.add(String(r.params?.[0]))
        const logs = body.filter((c) => c.method === 'eth_getLogs')
        if (receipts.length === 0 && logs.length < 2) return null
        return {
          rewrite: (answer) => {
            const out = asList(answer).map((x) =>
              receipts.some((r) => r.id === x.id) ? { jsonrpc: '2.0', id: x.id, result: null } : x,
            )
            if (logs.length < 2) return out
            // Each id answered with the other search's result: one answer per id, in order.
            const [l0, l1] = logs.map((c) => out.find((x) => x.id === c.id) as RpcAnswer)
            swapped++
            return out.map((x) =>
              x === l0 ? { ...x, result: l1?.result } : x === l1 ? { ...x, result: l0?.result } : x,
            )
          },
        }
      })
      await on.services.reconcile()
      proxy.set(null)
      expect(swapped, 'the event searches were answered swapped').toBeGreaterThan(0)
      const during = only(await rowsOf(on, who))
      expect(
        ['pending', 'settled'].includes(during.status) && during.txHash === tx,
        `row ${during.status} ${during.errorCode} ${during.txHash}`,
      ).toBe(true)

      await on.services.reconcile()
      expect(only(await rowsOf(on, who))).toMatchObject({ status: 'settled', txHash: tx, served: true })
      expect(await sw.usdcBalance(who.account.address)).toBe(FUNDED - price)
      expect(await sw.usdcBalance(payTo)).toBe(payToBefore + price)
    } finally {
      proxy.set(null)
      await on.stop()
    }
  }, 120_000)
})
