import { decodePaymentResponseHeader } from '@x402/core/http'
import type { PaymentPayload } from '@x402/core/types'
import { toClientEvmSigner } from '@x402/evm'
import { BatchSettlementEvmScheme, InMemoryClientChannelStorage } from '@x402/evm/batch-settlement/client'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import pg from 'pg'
import { createTestClient, type Hex, http, keccak256, parseAbi, parseEventLogs, parseSignature } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { NETWORK, USDC } from '../../src/chain/network.js'
import { loadConfig } from '../../src/config.js'
import { HELD_STALE_SECONDS } from '../../src/payments/credit/reconcileCredit.js'
import { type Answer, pay } from '../helpers/attackKit.js'
import { type ChildService, startChildService } from '../helpers/childService.js'
import {
  authorizationUsed,
  creditOf,
  expectedCreditUsd,
  paidFetch,
  type SignedAuthorization,
  submitAuthorization,
  transferUtil,
  utilWallet,
} from '../helpers/creditKit.js'
import { errorOf } from '../helpers/errorOf.js'
import { eventually } from '../helpers/eventually.js'
import { faultyRpcProxy, type RpcCall } from '../helpers/faultyRpcProxy.js'
import { holdingProxy } from '../helpers/holdingProxy.js'
import { challengeOf, signChallenge, useWorld } from '../helpers/serviceWorld.js'
import { testDatabase } from '../helpers/testDatabase.js'

// Issue 28, the crash drill: `kill -9` the service while `exact` settlements are in flight on a devnet
// mining a block every 2 s, start it again on the same ledger, and check every authorization against
// the chain: its transfer happened once and the ledger says settled, or it never happened and the
// ledger does not say so; nobody was served twice, nobody charged for a call they did not get. The same
// for settlements killed before their broadcast left the process, and for the other rails below.

const sw = useWorld()
const PRICES = '/v1/prices?symbols=BTC'
/** Paid and answered before the kill: their rows must say served. */
const EARLY = 2
/** Paid in one wave, killed while their settlements wait for the next block. */
const WAVE = 8
const USDC_ABI = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
])

interface Row {
  payer: string
  nonce: string
  status: string
  served: boolean
  tx_hash: string | null
  amount: string
  error_code: string | null
}

const children: ChildService[] = []
afterAll(async () => {
  for (const c of children) await c.kill9()
})

async function ledgerRows(url: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<Row>(
      'SELECT payer, nonce, status, served, tx_hash, amount::text AS amount, error_code FROM payments',
    )
    return rows
  } finally {
    await client.end()
  }
}

describe('crash drill: exact settlements in flight', () => {
  test('attack: kill -9 while settlements wait for their 2 s block, restart on the same ledger: each authorization settled once (ledger = chain) or never, no call served twice, nobody charged unserved', async () => {
    const db = await testDatabase()
    // The reconciler's interval shortened so the restarted service decides rows the mempool lands after
    // its first round within the test's time (the default is 30 s).
    const env = { ...sw.env, DATABASE_URL: db.url, RECONCILE_INTERVAL_MS: '1000' }
    const config = loadConfig(env)
    const relayer = privateKeyToAccount(config.payments.relayerPrivateKey as Hex).address
    const testClient = createTestClient({ mode: 'anvil', transport: http(sw.world.rpcUrl) })
    try {
      const first = await startChildService(env)
      children.push(first)
      const url = `${first.url}${PRICES}`
      const challenge = await challengeOf(url)
      const price = BigInt(challenge.accepts[0]?.amount as string)
      const payTo = challenge.accepts[0]?.payTo as `0x${string}`
      const funded = 10n * price
      const wallets = []
      for (let i = 0; i < EARLY + WAVE; i++) wallets.push(await sw.freshWallet(funded))
      // Each signed by the official client for its own wallet (the nonce is read back from its payload).
      const payloads: PaymentPayload[] = await Promise.all(wallets.map((w) => signChallenge(w, challenge)))
      const nonceOf = (i: number) =>
        ((payloads[i] as PaymentPayload).payload as { authorization: { nonce: Hex } }).authorization.nonce
      const attempt = (i: number) =>
        pay(url, payloads[i] as PaymentPayload).then(
          (answer): Answer | Error => answer,
          (err: unknown): Answer | Error => (err instanceof Error ? err : new Error(String(err))),
        )
      const payToBefore = await sw.usdcBalance(payTo)

      // Base's block time: a block every 2 s, no block per transaction.
      await testClient.setAutomine(false)
      await testClient.setIntervalMining({ interval: 2 })
      // Two calls answered before the kill, each waiting for its block.
      const early = await Promise.all(Array.from({ length: EARLY }, (_, i) => attempt(i)))
      expect(early.map((a) => (a instanceof Error ? a.message : a.status))).toEqual(Array(EARLY).fill(200))
      // The next block is held while the wave is broadcast, so the kill finds every settlement of the
      // wave in flight however slowly a loaded machine runs the handlers (on a free-running 2 s clock a
      // block can land between the last broadcast and the kill); it is let go right after the kill.
      await testClient.setIntervalMining({ interval: 0 })
      const minedBefore = await sw.chain.getTransactionCount({ address: relayer, blockTag: 'latest' })
      const calls = Array.from({ length: WAVE }, (_, i) => attempt(EARLY + i))
      // Kill once every settlement is broadcast and waiting for inclusion (or the wave is over).
      await vi.waitFor(
        async () => {
          const pending = await sw.chain.getTransactionCount({ address: relayer, blockTag: 'pending' })
          expect(pending - minedBefore).toBeGreaterThanOrEqual(WAVE)
        },
        { timeout: 5_000, interval: 10 },
      )
      await first.kill9()
      const inFlightAtKill =
        (await sw.chain.getTransactionCount({ address: relayer, blockTag: 'pending' })) -
        (await sw.chain.getTransactionCount({ address: relayer, blockTag: 'latest' }))
      await testClient.setIntervalMining({ interval: 2 })
      const wave = await Promise.all(calls)
      const answers = [...early, ...wave]
      const answeredInWave = wave.filter((a) => !(a instanceof Error)).length
      // The drill is only a drill if settlements were cut off: some still unmined and unanswered.
      expect(inFlightAtKill).toBeGreaterThan(0)
      expect(WAVE - answeredInWave).toBeGreaterThan(0)

      // The same ledger, a new process; its start reconciles what the killed one left pending.
      const second = await startChildService(env)
      children.push(second)
      await second.reconciled
      await vi.waitFor(
        async () => expect((await ledgerRows(db.url)).filter((r) => r.status === 'pending')).toEqual([]),
        { timeout: 20_000, interval: 200 },
      )

      const rows = await ledgerRows(db.url)
      let settledOnChain = 0
      const endings: Record<string, number> = {}
      for (const [i, wallet] of wallets.entries()) {
        const from = wallet.account.address
        const nonce = nonceOf(i)
        const used = await sw.chain.readContract({
          address: USDC,
          abi: USDC_ABI,
          functionName: 'authorizationState',
          args: [from, nonce],
        })
        const balance = await sw.usdcBalance(from)
        const mine = rows.filter(
          (r) =>
            r.payer.toLowerCase() === from.toLowerCase() && r.nonce.toLowerCase() === nonce.toLowerCase(),
        )
        // One row at most per authorization (the ledger's unique key).
        expect(mine.length).toBeLessThanOrEqual(1)
        const row = mine[0]
        const answer = answers[i] as Answer | Error
        const gotAnswer = !(answer instanceof Error)
        if (used) {
          settledOnChain++
          // Charged exactly once, and the ledger says so with the transaction that did it.
          expect(balance).toBe(funded - price)
          expect(row?.status).toBe('settled')
          expect(BigInt(row?.amount ?? '0')).toBe(price)
          const receipt = await sw.chain.getTransactionReceipt({ hash: row?.tx_hash as Hex })
          expect(receipt.status).toBe('success')
          const transfers = parseEventLogs({
            abi: USDC_ABI,
            logs: receipt.logs,
            eventName: 'Transfer',
          }).filter(
            (l) =>
              l.address.toLowerCase() === USDC.toLowerCase() &&
              l.args.from.toLowerCase() === from.toLowerCase() &&
              l.args.to.toLowerCase() === payTo.toLowerCase(),
          )
          expect(transfers.map((t) => t.args.value)).toEqual([price])
          // A charge for a call whose answer never reached its caller is on the books as unserved
          // (a refund candidate), never as served.
          expect(row?.served).toBe(gotAnswer && (answer as Answer).status === 200)
        } else {
          // Never charged, and the ledger does not count it.
          expect(balance).toBe(funded)
          expect(row?.status).not.toBe('settled')
          if (gotAnswer) expect((answer as Answer).status).not.toBe(200)
        }
        if (gotAnswer && (answer as Answer).status === 200) {
          const receipt = decodePaymentResponseHeader(
            (answer as Answer).headers.get('payment-response') ?? '',
          )
          expect(receipt.payer?.toLowerCase()).toBe(from.toLowerCase())
        }
        const ending = `${gotAnswer ? (answer as Answer).status : 'reset'}:${used ? 'charged' : 'free'}:${row?.status ?? 'no row'}`
        endings[ending] = (endings[ending] ?? 0) + 1
      }
      // The ledger agrees with the chain: what it calls settled is what payTo received.
      const settledRows = rows.filter((r) => r.status === 'settled')
      expect(settledRows).toHaveLength(settledOnChain)
      expect(await sw.usdcBalance(payTo)).toBe(payToBefore + BigInt(settledOnChain) * price)

      // Nobody is served twice: each authorization sent again to the restarted service is refused and
      // moves nothing (used ones by the ledger's key and the chain; the claim store was lost with the process).
      for (const [i, wallet] of wallets.entries()) {
        const before = await sw.usdcBalance(wallet.account.address)
        const again = await pay(`${second.url}${PRICES}`, payloads[i] as PaymentPayload)
        const row = rows.find((r) => r.payer.toLowerCase() === wallet.account.address.toLowerCase())
        if (row !== undefined) expect([again.status, again.code]).toEqual([402, 'payment_replayed'])
        expect(await sw.usdcBalance(wallet.account.address)).toBe(
          row === undefined && again.status === 200 ? before - price : before,
        )
      }
      // And the restarted service serves and settles a new payer.
      const fresh = await sw.freshWallet(funded)
      const served = await pay(
        `${second.url}${PRICES}`,
        await signChallenge(fresh, await challengeOf(`${second.url}${PRICES}`)),
      )
      expect(served.status).toBe(200)
      expect(await sw.usdcBalance(fresh.account.address)).toBe(funded - price)
      console.info('crash drill (exact):', { inFlightAtKill, answeredInWave, endings })
    } finally {
      await testClient.setIntervalMining({ interval: 0 })
      await testClient.setAutomine(true)
      for (const c of children) await c.kill9()
      await db.drop()
    }
  }, 90_000)
})

describe('crash drill: an exact settlement killed before its broadcast', () => {
  test('attack: kill -9 after the ledger row opened and before the relayer’s broadcast reached the node, restart on the same ledger: the authorization never resent ends failed once it cannot land; the one resent is refused and moves nothing, and when a third party lands it the row is settled unserved (a refund owed); one killed in its handler (no row yet) is served and settled once when resent; payTo = the settled rows', async () => {
    const db = await testDatabase()
    // The child's RPC through a proxy that swallows the relayer's broadcasts: the signed settlement never
    // leaves for the node, as if the process died with the bytes still in its socket buffer.
    const rpc = await faultyRpcProxy(sw.world.rpcUrl)
    // And its exchange through one that holds a call in its handler (before any row: one opens only
    // once the handler has answered).
    const coinbase = await holdingProxy(loadConfig(sw.env).upstreams.coinbaseExchange)
    const env = {
      ...sw.env,
      DATABASE_URL: db.url,
      RPC_URL: rpc.url,
      COINBASE_URL: coinbase.url,
      RECONCILE_INTERVAL_MS: '1000',
    }
    const relayer = privateKeyToAccount(loadConfig(env).payments.relayerPrivateKey as Hex).address
    const testClient = createTestClient({ mode: 'anvil', transport: http(sw.world.rpcUrl) })
    try {
      const first = await startChildService(env)
      children.push(first)
      const url = `${first.url}${PRICES}`
      const challenge = await challengeOf(url)
      const price = BigInt(challenge.accepts[0]?.amount as string)
      const payTo = challenge.accepts[0]?.payTo as `0x${string}`
      const funded = 10n * price
      // `expiring` signs a short window (a payer may: the gate wants 6 s of validity at least), so its
      // authorization is dead onchain within the test; `resent` signs the route's full window and sends the
      // very same authorization again to the restarted service, as a retrying x402 client would; so does
      // `inHandler`, whose call is killed in its handler.
      const expiring = await sw.freshWallet(funded)
      const resent = await sw.freshWallet(funded)
      const inHandler = await sw.freshWallet(funded)
      const short = {
        ...challenge,
        accepts: challenge.accepts.map((a) => (a.scheme === 'exact' ? { ...a, maxTimeoutSeconds: 12 } : a)),
      }
      const ethUrl = `${first.url}/v1/prices?symbols=ETH`
      const payloads = [
        await signChallenge(expiring, short),
        await signChallenge(resent, challenge),
        await signChallenge(inHandler, await challengeOf(ethUrl)),
      ]
      const auth = (i: number) =>
        (payloads[i] as PaymentPayload).payload as { authorization: SignedAuthorization; signature: Hex }
      const wallets = [expiring.account.address, resent.account.address, inHandler.account.address]
      const payToBefore = await sw.usdcBalance(payTo)
      const relayerNonce = await sw.chain.getTransactionCount({ address: relayer, blockTag: 'pending' })

      const swallowed: Hex[] = []
      rpc.set((body) => {
        const calls = Array.isArray(body) ? body : [body]
        const send = calls.find((c: RpcCall) => c.method.startsWith('eth_sendRawTransaction'))
        if (send === undefined) return null
        swallowed.push(send.params?.[0] as Hex)
        return { swallow: true }
      })
      const hold = coinbase.hold((path) => path.includes('ETH-USD'))
      const calls = payloads.map((p, i) =>
        pay(i === 2 ? ethUrl : url, p).then(
          (answer): Answer | Error => answer,
          (err: unknown): Answer | Error => (err instanceof Error ? err : new Error(String(err))),
        ),
      )
      // Two settlements signed and on their way to the node: their rows are open, pending, unserved, with
      // no transaction recorded; the third call is in its handler, with no row. That is the moment of the kill.
      await hold.arrived
      await vi.waitFor(() => expect(swallowed).toHaveLength(2), { timeout: 15_000, interval: 20 })
      const atKill = await ledgerRows(db.url)
      expect(atKill.map((r) => [r.payer, r.status, r.served, r.tx_hash]).sort()).toEqual(
        wallets
          .slice(0, 2)
          .map((w) => [w.toLowerCase(), 'pending', false, null])
          .sort(),
      )
      await first.kill9()
      rpc.set(null)
      hold.release()
      // No caller got an answer, and the node never saw either settlement.
      for (const answer of await Promise.all(calls)) expect(answer).toBeInstanceOf(Error)
      for (const raw of swallowed) {
        await expect(sw.chain.getTransaction({ hash: keccak256(raw) })).rejects.toThrow(/could not be found/i)
      }
      expect(await sw.chain.getTransactionCount({ address: relayer, blockTag: 'pending' })).toBe(relayerNonce)

      // The short authorization expires onchain: a block stamped past its validBefore (never ahead of the
      // wall clock: the chain is only pinned forward to it once the wall clock has passed it).
      const expiresAt = Number(auth(0).authorization.validBefore)
      await vi.waitFor(() => expect(Date.now() / 1000).toBeGreaterThan(expiresAt + 1), {
        timeout: 20_000,
        interval: 200,
      })
      if ((await sw.chain.getBlock()).timestamp <= BigInt(expiresAt))
        await testClient.setNextBlockTimestamp({ timestamp: BigInt(expiresAt + 1) })
      await testClient.mine({ blocks: 1 })
      // Nobody can land it any more: USDC refuses it.
      const a = auth(0)
      const sig = parseSignature(a.signature)
      await expect(
        sw.chain.simulateContract({
          account: relayer,
          address: USDC,
          abi: USDC_ABI,
          functionName: 'transferWithAuthorization',
          args: [
            a.authorization.from,
            a.authorization.to,
            BigInt(a.authorization.value),
            BigInt(a.authorization.validAfter),
            BigInt(a.authorization.validBefore),
            a.authorization.nonce,
            Number(sig.v),
            sig.r,
            sig.s,
          ],
        }),
      ).rejects.toThrow(/authorization is expired/)

      // Restarted on the same ledger a minute later in its own clock (past the reconciler's grace for block
      // timestamps that trail the clock): its first round closes the dead authorization's row and keeps the
      // live one pending (the killed process might have broadcast it; only the chain can say).
      const second = await startChildService({ ...env, SERVICE_CLOCK_OFFSET_MS: '61000' })
      children.push(second)
      await second.reconciled
      const rowOf = async (i: number) =>
        (await ledgerRows(db.url)).find((r) => r.payer === wallets[i]?.toLowerCase()) as Row
      // Its first round, or the next (a round that met an RPC fault retries a second later).
      await vi.waitFor(
        async () =>
          expect(await rowOf(0)).toMatchObject({
            status: 'failed',
            served: false,
            tx_hash: null,
            error_code: 'expired_unsettled',
          }),
        { timeout: 10_000, interval: 200 },
      )
      expect(await rowOf(1)).toMatchObject({ status: 'pending', served: false, tx_hash: null })

      // Sent again: the expired one is refused as expired, the live one as replayed (its row exists, so
      // it is never settled a second time, whatever the killed process did). Neither moves any USDC.
      const again = [await pay(`${second.url}${PRICES}`, payloads[0] as PaymentPayload)]
      again.push(await pay(`${second.url}${PRICES}`, payloads[1] as PaymentPayload))
      expect(again.map((r) => [r.status, r.code])).toEqual([
        [402, 'payment_expired'],
        [402, 'payment_replayed'],
      ])
      for (const [i, wallet] of wallets.slice(0, 2).entries()) {
        expect(await sw.usdcBalance(wallet)).toBe(funded)
        expect(await authorizationUsed(sw.chain, wallet, auth(i).authorization.nonce)).toBe(false)
      }
      expect(await rowOf(1)).toMatchObject({ status: 'pending', served: false })
      expect(await sw.usdcBalance(payTo)).toBe(payToBefore)
      expect(await rowOf(2)).toBeUndefined()
      // The call killed in its handler left nothing behind: sent again, it is served and settled, once.
      const retried = await pay(`${second.url}/v1/prices?symbols=ETH`, payloads[2] as PaymentPayload)
      expect(retried.status).toBe(200)
      const paid = decodePaymentResponseHeader(retried.headers.get('payment-response') ?? '')
      expect(paid.success).toBe(true)
      // The outcome and the served mark are written just after the response, off its path.
      await eventually(async () =>
        expect(await rowOf(2)).toMatchObject({ status: 'settled', served: true, tx_hash: paid.transaction }),
      )
      expect(await sw.usdcBalance(wallets[2] as `0x${string}`)).toBe(funded - price)
      const twice = await pay(`${second.url}/v1/prices?symbols=ETH`, payloads[2] as PaymentPayload)
      expect([twice.status, twice.code]).toEqual([402, 'payment_replayed'])
      expect(await sw.usdcBalance(wallets[2] as `0x${string}`)).toBe(funded - price)

      // Anyone who saw the live authorization can still land it (it was in a request): the reconciler books
      // the transfer it finds onchain as settled, and unserved: a refund owed, never a served call.
      const thirdParty = await sw.freshWallet(0n, 10n ** 16n)
      const b = auth(1)
      await submitAuthorization(sw.chain, thirdParty.privateKey, b.authorization, b.signature)
      await vi.waitFor(async () => expect((await rowOf(1)).status).toBe('settled'), {
        timeout: 15_000,
        interval: 200,
      })
      const landed = await rowOf(1)
      expect(landed.served).toBe(false)
      const receipt = await sw.chain.getTransactionReceipt({ hash: landed.tx_hash as Hex })
      expect(receipt.from.toLowerCase()).toBe(thirdParty.account.address.toLowerCase())
      expect(await sw.usdcBalance(wallets[1] as `0x${string}`)).toBe(funded - price)
      expect(await sw.usdcBalance(wallets[0] as `0x${string}`)).toBe(funded)

      // The books agree with the chain: payTo received exactly the settled rows, and the relayer sent one
      // transaction only, the resent call's settlement.
      const rows = await ledgerRows(db.url)
      const settled = rows.filter((r) => r.status === 'settled')
      expect(settled).toHaveLength(2)
      expect(await sw.usdcBalance(payTo)).toBe(
        payToBefore + settled.reduce((sum, r) => sum + BigInt(r.amount), 0n),
      )
      expect(await sw.chain.getTransactionCount({ address: relayer, blockTag: 'pending' })).toBe(
        relayerNonce + 1,
      )
      const ending = async (i: number) => {
        const r = await rowOf(i)
        return `${r.status}${r.served ? '+served' : '+unserved'}${r.error_code === null ? '' : `:${r.error_code}`}`
      }
      console.info('crash drill (exact, before broadcast):', {
        expiring: await ending(0),
        resent: await ending(1),
        inHandler: await ending(2),
      })
    } finally {
      for (const c of children) await c.kill9()
      await rpc.close()
      await coinbase.close()
      await db.drop()
    }
  }, 90_000)
})

interface DebitRow {
  wallet: string
  nonce: string
  status: string
  amount: string
}

async function debitRows(url: string, wallet: string): Promise<DebitRow[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<DebitRow>(
      'SELECT wallet, nonce, status, amount::text AS amount FROM credit_debits WHERE wallet = $1 ORDER BY id',
      [wallet.toLowerCase()],
    )
    return rows
  } finally {
    await client.end()
  }
}

describe('crash drill: a credit debit in flight', () => {
  test('attack: kill -9 while a credit-paid call is in its handler (its debit held), restart on the same ledger: the debit is released, the credit is whole again, no USDC moved, the authorization never submitted', async () => {
    const db = await testDatabase()
    // The prices route waits on the exchange: held there, the credit-paid call stays in its handler.
    const coinbase = await holdingProxy(loadConfig(sw.env).upstreams.coinbaseExchange)
    const env = { ...sw.env, DATABASE_URL: db.url, COINBASE_URL: coinbase.url }
    try {
      const first = await startChildService(env)
      children.push(first)
      const util = 10n ** 24n // a million UTIL: about $100 of credit on the devnet
      const w = await utilWallet(sw, 1_000_000n, util)
      const topUpHash = await transferUtil(
        sw.chain,
        w.privateKey,
        loadConfig(env).payments.creditRecipient,
        util,
      )
      const sent: PaymentPayload[] = []
      w.client.onAfterPaymentCreation(async ({ paymentPayload }) => {
        sent.push(paymentPayload)
      })
      // The top-up and a first call on credit, answered.
      const topUp = await paidFetch(w, { 'X-UTIL-TOPUP': topUpHash })(`${first.url}/v1/prices?symbols=BTC`)
      expect(topUp.status).toBe(200)
      const before = BigInt((await creditOf(first.url, w.account.address)).balanceAtomic)
      expect(before).toBeGreaterThan(0n)
      const usdcBefore = await sw.usdcBalance(w.account.address)

      const hold = coinbase.hold((path) => path.includes('ETH-USD'))
      const inFlight = paidFetch(w)(`${first.url}/v1/prices?symbols=ETH`).then(
        (r) => r.status,
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      )
      await hold.arrived
      const nonce = ((sent.at(-1) as PaymentPayload).payload as { authorization: { nonce: Hex } })
        .authorization.nonce
      // The debit is taken while the handler runs.
      const held = (await debitRows(db.url, w.account.address)).at(-1)
      expect(held).toMatchObject({ nonce: nonce.toLowerCase(), status: 'held' })
      const debit = BigInt(held?.amount ?? '0')
      expect(BigInt((await creditOf(first.url, w.account.address)).balanceAtomic)).toBe(before - debit)

      await first.kill9()
      hold.release()
      // The caller never got its answer.
      expect(await inFlight).toBeInstanceOf(Error)

      // Restarted on the same ledger, as it is once a held debit has outlived any handler (five minutes
      // later in its own time): its first reconcile round gives the debit back.
      const second = await startChildService({
        ...env,
        SERVICE_CLOCK_OFFSET_MS: String((HELD_STALE_SECONDS + 1) * 1000),
      })
      children.push(second)
      await second.reconciled
      await vi.waitFor(
        async () =>
          expect((await debitRows(db.url, w.account.address)).map((r) => r.status)).toEqual([
            'spent',
            'released',
          ]),
        { timeout: 10_000, interval: 100 },
      )
      expect(BigInt((await creditOf(second.url, w.account.address)).balanceAtomic)).toBe(before)
      // Nothing moved onchain: the authorization was never submitted and no USDC left the wallet.
      expect(await authorizationUsed(sw.chain, w.account.address, nonce)).toBe(false)
      expect(await sw.usdcBalance(w.account.address)).toBe(usdcBefore)
      expect(
        (await ledgerRows(db.url)).filter((r) => r.payer.toLowerCase() === w.account.address.toLowerCase()),
      ).toEqual([])
    } finally {
      for (const c of children) await c.kill9()
      await coinbase.close()
      await db.drop()
    }
  }, 90_000)
})

describe('crash drill: top-ups in flight', () => {
  test('attack: kill -9 while top-ups are read and credited, restart on the same ledger: each top-up is credited exactly once (at its block’s price), resent it is credited if it was not or refused topup_used if it was, no USDC moved, one debit at most per call, spent for every answered one', async () => {
    const db = await testDatabase()
    const env = { ...sw.env, DATABASE_URL: db.url }
    const util = 10n ** 24n
    try {
      const first = await startChildService(env)
      children.push(first)
      const recipient = loadConfig(env).payments.creditRecipient
      const payers = []
      for (let i = 0; i < 6; i++) {
        const w = await utilWallet(sw, 1_000_000n, util)
        const hash = await transferUtil(sw.chain, w.privateKey, recipient, util)
        const { blockNumber } = await sw.chain.getTransactionReceipt({ hash })
        payers.push({ w, hash, worth: await expectedCreditUsd(sw.chain, util, blockNumber) })
      }
      const calls = payers.map(({ w, hash }) =>
        paidFetch(w, { 'X-UTIL-TOPUP': hash })(`${first.url}/v1/prices?symbols=BTC`).then(
          (r) => r.status,
          (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
        ),
      )
      // Killed as the first is answered: the others are somewhere between the gate and their answer.
      await Promise.race(calls)
      await first.kill9()
      const answers = await Promise.all(calls)

      const second = await startChildService(env)
      children.push(second)
      await second.reconciled
      const endings: Record<string, number> = {}
      for (const [i, { w, hash, worth }] of payers.entries()) {
        const wallet = w.account.address
        const answer = answers[i] as number | Error
        const recorded = (await creditOf(second.url, wallet)).topUps.length
        expect(recorded).toBeLessThanOrEqual(1)
        // What the killed process booked: one debit at most; spent for every answered call. A call cut off
        // is spent only if the kill came between its spend and its answer's bytes (the spend is the last
        // write before the answer leaves: no process can know whether those bytes arrived); otherwise held,
        // and given back by the reconciler (the credit drill above).
        const debits = await debitRows(db.url, wallet)
        expect(debits.length).toBeLessThanOrEqual(1)
        const spent = debits.filter((d) => d.status === 'spent').length
        if (answer === 200) expect(spent).toBe(1)
        else expect(debits.every((d) => d.status === 'spent' || d.status === 'held')).toBe(true)
        if (answer === 200) expect(recorded).toBe(1)
        // Sent again: credited now if the crash lost it, refused if it was booked; never twice.
        const again = await paidFetch(w, { 'X-UTIL-TOPUP': hash })(`${second.url}/v1/prices?symbols=ETH`)
        if (recorded === 1) {
          expect(again.status).toBe(409)
          expect(errorOf(await again.json())?.code).toBe('topup_used')
        } else {
          expect(again.status).toBe(200)
        }
        const statement = await creditOf(second.url, wallet)
        expect(statement.topUps.map((t) => [t.txHash.toLowerCase(), t.utilAmount])).toEqual([
          [hash.toLowerCase(), util.toString()],
        ])
        // Valued as of the transfer's block (docs/credit.md), within one atomic unit.
        expect(Math.abs((statement.topUps[0]?.creditedUsd as number) - worth)).toBeLessThanOrEqual(1e-6)
        // Credit calls never move USDC, and no authorization was submitted.
        expect(await sw.usdcBalance(wallet)).toBe(1_000_000n)
        for (const d of await debitRows(db.url, wallet)) {
          expect(await authorizationUsed(sw.chain, wallet, d.nonce as Hex)).toBe(false)
        }
        const ending = `${answer instanceof Error ? 'reset' : answer}:${recorded === 1 ? 'booked' : 'lost'}:${debits.map((d) => d.status).join('+') || 'no debit'}`
        endings[ending] = (endings[ending] ?? 0) + 1
      }
      console.info('crash drill (top-up):', endings)
    } finally {
      for (const c of children) await c.kill9()
      await db.drop()
    }
  }, 90_000)
})

describe('crash drill: a batch-settlement claim in flight', () => {
  test('attack: kill -9 while the claim of three voucher-paid calls waits for its block, restart on the same ledger: the vouchers are claimed and swept once, payTo gets exactly the three calls, the books keep three rows', async () => {
    const db = await testDatabase()
    // Claims run on their own every second, as a deployment's interval would (shortened for the test).
    const env = { ...sw.env, DATABASE_URL: db.url, BATCH_CLAIM_INTERVAL_SECONDS: '1' }
    const relayer = privateKeyToAccount(loadConfig(env).payments.relayerPrivateKey as Hex).address
    const testClient = createTestClient({ mode: 'anvil', transport: http(sw.world.rpcUrl) })
    try {
      const first = await startChildService(env)
      children.push(first)
      const challenge = await challengeOf(`${first.url}${PRICES}`)
      const price = BigInt(challenge.accepts[0]?.amount as string)
      const payTo = challenge.accepts[0]?.payTo as `0x${string}`
      const deposit = 10n * price
      const wallet = await sw.freshWallet(deposit)
      // The official client on the batch-settlement scheme: one deposit, a voucher per call.
      const scheme = new BatchSettlementEvmScheme(
        toClientEvmSigner(privateKeyToAccount(wallet.privateKey), sw.chain),
        { storage: new InMemoryClientChannelStorage(), depositStrategy: () => deposit },
      )
      const pay = wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, scheme))
      const payToBefore = await sw.usdcBalance(payTo)
      // Blocks held from here: the deposit's and the claim's transactions wait in the pool.
      await testClient.setAutomine(false)
      await testClient.setIntervalMining({ interval: 0 })
      const minedBefore = await sw.chain.getTransactionCount({ address: relayer, blockTag: 'latest' })
      const depositCall = pay(`${first.url}${PRICES}`)
      await vi.waitFor(
        async () =>
          expect(
            await sw.chain.getTransactionCount({ address: relayer, blockTag: 'pending' }),
          ).toBeGreaterThan(minedBefore),
        { timeout: 10_000, interval: 20 },
      )
      await testClient.mine({ blocks: 1 })
      expect((await depositCall).status).toBe(200)
      for (let i = 0; i < 2; i++) expect((await pay(`${first.url}${PRICES}`)).status).toBe(200)
      // The claim goes out on the next tick of the interval and waits for a block: kill then.
      const afterCalls = await sw.chain.getTransactionCount({ address: relayer, blockTag: 'latest' })
      await vi.waitFor(
        async () =>
          expect(
            await sw.chain.getTransactionCount({ address: relayer, blockTag: 'pending' }),
          ).toBeGreaterThan(afterCalls),
        { timeout: 10_000, interval: 20 },
      )
      await first.kill9()
      const inFlightAtKill =
        (await sw.chain.getTransactionCount({ address: relayer, blockTag: 'pending' })) - afterCalls
      expect(inFlightAtKill).toBeGreaterThan(0)
      await testClient.setIntervalMining({ interval: 2 })

      // The restart claims what is left and sweeps: payTo gets the three calls, once.
      const second = await startChildService(env)
      children.push(second)
      await vi.waitFor(async () => expect(await sw.usdcBalance(payTo)).toBe(payToBefore + 3n * price), {
        timeout: 30_000,
        interval: 200,
      })
      // And no more after further claim rounds and blocks.
      await new Promise((r) => setTimeout(r, 4_000))
      expect(await sw.usdcBalance(payTo)).toBe(payToBefore + 3n * price)
      expect(await sw.usdcBalance(wallet.account.address)).toBe(0n)
      const rows = (await ledgerRows(db.url)).filter(
        (r) => r.payer.toLowerCase() === wallet.account.address.toLowerCase(),
      )
      expect(rows.map((r) => [r.status, BigInt(r.amount)])).toEqual(Array(3).fill(['settled', price]))
      console.info('crash drill (batch claim):', { inFlightAtKill })
    } finally {
      await testClient.setIntervalMining({ interval: 0 })
      await testClient.setAutomine(true)
      for (const c of children) await c.kill9()
      await db.drop()
    }
  }, 90_000)
})
