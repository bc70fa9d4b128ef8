/**
 * x402 `batch-settlement` end to end through the service, with the OFFICIAL clients only: @x402/fetch's
 * wrapFetchWithPayment over an x402Client with @x402/evm's batch-settlement client scheme registered, against
 * the devnet's x402BatchSettlement stand-in. The service runs the official server scheme and facilitator.
 */
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  decodePaymentSignatureHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http'
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { toClientEvmSigner } from '@x402/evm'
import { computeChannelId, signVoucher } from '@x402/evm/batch-settlement/client'
import { appendPaymentIdentifierToExtensions, generatePaymentId } from '@x402/extensions/payment-identifier'
import { beforeAll, describe, expect, test } from 'vitest'
import { X402_BATCH_SETTLEMENT } from '../../src/chain/addresses.js'
import { NETWORK } from '../../src/chain/network.js'
import { errorOf } from '../helpers/errorOf.js'
import { type Instance, useWorld } from '../helpers/serviceWorld.js'
import { type BatchAgent, batchAgent } from '../helpers/voucherKit.js'

const PATH = '/v1/prices?symbols=BTC'
const PRICE = 1000n // $0.001, the route's price
const CALLS = Number(process.env.BATCH_TEST_CALLS ?? 1000)
const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

const sw = useWorld({ blockTimeSeconds: 0.2 })
let svc: Instance

// Claims only when the test asks (the interval is ten minutes, the longest a 900 s withdraw delay allows).
const QUIET = { BATCH_CLAIM_INTERVAL_SECONDS: '600' }

beforeAll(async () => {
  svc = await sw.instance(QUIET)
}, 120_000)

type Wallet = Awaited<ReturnType<typeof sw.freshWallet>>

/** An agent paying with the official client: one channel, deposits of `deposit`, vouchers after. */
const batchAgentOf = (wallet: Wallet, deposit: bigint) => batchAgent(sw.chain, wallet.privateKey, deposit)

async function batchRequirements(instance: Instance): Promise<PaymentRequirements> {
  const res = await fetch(`${instance.url}${PATH}`)
  await res.body?.cancel()
  const accepts = decodePaymentRequiredHeader(res.headers.get('payment-required') ?? '').accepts
  const batch = accepts.find((a) => a.scheme === 'batch-settlement')
  if (batch === undefined) throw new Error('no batch-settlement entry')
  return batch
}

const send = (instance: Instance, header: string, path = PATH) =>
  fetch(`${instance.url}${path}`, { headers: { 'PAYMENT-SIGNATURE': header } }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { error?: unknown; refusal?: { code?: string } },
    header: r.headers.get('payment-required'),
  }))

/** The ledger rows of `payer` once the writes made after each response have landed. */
const ledgerRows = async (instance: Instance, payer: string) => {
  await instance.services.deps.ledger.drain()
  return instance.services.deps.ledger.byPayer(payer)
}

const storedChannel = (instance: Instance, channelId: string) =>
  instance.services.deps.batch.scheme.getStorage().get(channelId)

async function voucherPayload(
  agent: BatchAgent,
  requirements: PaymentRequirements,
  maxClaimable: bigint,
): Promise<PaymentPayload> {
  const channelConfig = agent.scheme.buildChannelConfig(requirements)
  const channelId = computeChannelId(channelConfig, NETWORK)
  const voucher = await signVoucher(
    toClientEvmSigner(agent.account, sw.chain),
    channelId,
    maxClaimable.toString(),
    NETWORK,
  )
  return { x402Version: 2, accepted: requirements, payload: { type: 'voucher', channelConfig, voucher } }
}

describe('x402 batch-settlement through the payment gate', () => {
  test('behavior: every challenge offers batch-settlement beside exact, at the same price, within 8 kB', async () => {
    const res = await fetch(`${svc.url}${PATH}`)
    await res.body?.cancel()
    const header = res.headers.get('payment-required') ?? ''
    expect(header.length).toBeLessThan(8192)
    const { accepts } = decodePaymentRequiredHeader(header)
    expect(accepts.map((a) => a.scheme)).toEqual(['exact', 'batch-settlement'])
    expect(accepts[1]).toMatchObject({
      network: NETWORK,
      amount: accepts[0]?.amount,
      payTo: accepts[0]?.payTo,
      extra: {
        receiverAuthorizer: svc.services.deps.facilitator.relayer,
        withdrawDelay: 900,
        minDeposit: (PRICE * 10n).toString(),
      },
    })
  })

  test(`behavior: ${CALLS} calls paid by vouchers on one deposit are claimed and swept in a handful of transactions; payTo gets exactly their sum`, async () => {
    // The calls' sum, at least the announced minimum deposit.
    const deposit = PRICE * BigInt(Math.max(CALLS, 10))
    const wallet = await sw.freshWallet(deposit)
    const agent = batchAgentOf(wallet, deposit)
    const payTo = svc.config.payTo
    const before = await sw.usdcBalance(payTo)
    const started = performance.now()
    for (let i = 0; i < CALLS; i++) {
      const res = await agent.pay(`${svc.url}${PATH}`)
      expect(res.status, `call ${i}`).toBe(200)
      const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') ?? '')
      expect(receipt.success).toBe(true)
      await res.body?.cancel()
    }
    const elapsed = performance.now() - started
    console.info(`${CALLS} batch-settlement calls in ${(elapsed / 1000).toFixed(1)} s`)
    // The first call deposited (one transaction); the rest signed vouchers. The payer holds nothing now.
    expect(await sw.usdcBalance(wallet.account.address)).toBe(0n)
    expect(agent.signatures).toHaveLength(CALLS)
    expect(await sw.usdcBalance(X402_BATCH_SETTLEMENT.settlement)).toBeGreaterThanOrEqual(deposit)

    const rows = await ledgerRows(svc, wallet.account.address)
    expect(rows).toHaveLength(CALLS)
    expect(rows.every((r) => r.scheme === 'batch-settlement' && r.status === 'settled')).toBe(true)
    const paid = PRICE * BigInt(CALLS)
    expect(rows.reduce((s, r) => s + r.amount, 0n)).toBe(paid)

    // Deposit, one claim (the channel's last voucher covers every call), one sweep: three transactions.
    const { claimTransactions, sweep } = await svc.services.deps.batch.claimAndSweep()
    expect(claimTransactions).toHaveLength(1)
    expect(sweep).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await sw.usdcBalance(payTo)).toBe(before + paid)
  }, 600_000)

  test('behavior: a handler failure (a 4xx input) consumes nothing; the next call pays the same step', async () => {
    const wallet = await sw.freshWallet(PRICE * 20n)
    const agent = batchAgentOf(wallet, PRICE * 10n)
    expect((await agent.pay(`${svc.url}${PATH}`)).status).toBe(200)
    const requirements = await batchRequirements(svc)
    const channelId = computeChannelId(agent.scheme.buildChannelConfig(requirements), NETWORK)
    const charged = (await storedChannel(svc, channelId))?.chargedCumulativeAmount
    expect(charged).toBe(PRICE.toString())

    const bad = await agent.pay(`${svc.url}/v1/prices?symbols=`)
    expect(bad.status).toBe(400)
    expect(bad.headers.get('payment-response')).toBeNull()
    expect((await storedChannel(svc, channelId))?.chargedCumulativeAmount).toBe(charged)
    expect((await storedChannel(svc, channelId))?.pendingRequest).toBeUndefined()

    const next = await agent.pay(`${svc.url}${PATH}`)
    expect(next.status).toBe(200)
    expect((await storedChannel(svc, channelId))?.chargedCumulativeAmount).toBe((2n * PRICE).toString())
    const rows = await ledgerRows(svc, wallet.account.address)
    expect(rows.map((r) => r.amount)).toEqual([PRICE, PRICE])
  })

  test('behavior: a cooperative refund returns the unused deposit; the calls paid still reach payTo', async () => {
    const deposit = PRICE * 10n
    const wallet = await sw.freshWallet(deposit)
    const agent = batchAgentOf(wallet, deposit)
    // Other tests' channels are claimed and swept first: what reaches payTo after is this channel's.
    await svc.services.deps.batch.claimAndSweep()
    const before = await sw.usdcBalance(svc.config.payTo)
    for (let i = 0; i < 3; i++) expect((await agent.pay(`${svc.url}${PATH}`)).status).toBe(200)
    expect(await sw.usdcBalance(wallet.account.address)).toBe(0n)
    const refund = await agent.scheme.refund(`${svc.url}${PATH}`)
    expect(refund.success).toBe(true)
    expect(await sw.usdcBalance(wallet.account.address)).toBe(deposit - 3n * PRICE)
    // The refund claimed the last voucher in its own transaction; the sweep sends it to payTo.
    await svc.services.deps.batch.claimAndSweep()
    expect(await sw.usdcBalance(svc.config.payTo)).toBe(before + 3n * PRICE)
  })

  describe('attacks', () => {
    test('attack: a replayed voucher is refused and charges nothing', async () => {
      const wallet = await sw.freshWallet(PRICE * 10n)
      const agent = batchAgentOf(wallet, PRICE * 10n)
      for (let i = 0; i < 2; i++) expect((await agent.pay(`${svc.url}${PATH}`)).status).toBe(200)
      const voucherHeader = agent.signatures.at(-1) ?? ''
      const depositHeader = agent.signatures[0] ?? ''
      for (const header of [voucherHeader, depositHeader]) {
        const replay = await send(svc, header)
        expect(replay.status).toBe(402)
        expect(replay.body.refusal?.code).toBe('payment_voucher_stale')
        // x402's own reason, and the channel state to resume from, for the official client.
        const challenge = decodePaymentRequiredHeader(replay.header ?? '')
        expect(challenge.error).toBe('invalid_batch_settlement_evm_cumulative_amount_mismatch')
        expect(challenge.accepts[1]?.extra.channelState).toMatchObject({
          chargedCumulativeAmount: (2n * PRICE).toString(),
        })
      }
      expect(await ledgerRows(svc, wallet.account.address)).toHaveLength(2)
      // The official client still pays the next step.
      expect((await agent.pay(`${svc.url}${PATH}`)).status).toBe(200)
    })

    test('attack: a voucher retried with its payment-identifier after its answer was lost gets the stored answer, charged once', async () => {
      const wallet = await sw.freshWallet(PRICE * 10n)
      const agent = batchAgentOf(wallet, PRICE * 10n)
      agent.client.onBeforePaymentCreation(async ({ paymentRequired }) => {
        paymentRequired.extensions ??= {}
        appendPaymentIdentifierToExtensions(paymentRequired.extensions, generatePaymentId())
      })
      const url = `${svc.url}${PATH}`
      const answerOf = async (res: Response) => ({
        status: res.status,
        body: await res.text(),
        receipt: res.headers.get('payment-response'),
      })
      expect((await agent.pay(url)).status).toBe(200)
      const first = await answerOf(await agent.pay(url))
      expect(first.status).toBe(200)
      // The same voucher again, as a client sends it when the first answer never reached it (issue 37
      // item 6: before, payment_voucher_stale, the call paid for and its answer gone).
      const header = agent.signatures.at(-1) as string
      const retried = await answerOf(await fetch(url, { headers: { 'PAYMENT-SIGNATURE': header } }))
      expect(retried).toEqual(first)
      const channelId = computeChannelId(
        agent.scheme.buildChannelConfig(await batchRequirements(svc)),
        NETWORK,
      )
      expect((await storedChannel(svc, channelId))?.chargedCumulativeAmount).toBe((2n * PRICE).toString())
      expect((await ledgerRows(svc, wallet.account.address)).map((r) => r.amount)).toEqual([PRICE, PRICE])
      // That voucher for another request is stale (refused, free); the identifier on the next voucher with
      // another request is a conflict (409), charged nothing either.
      const other = await fetch(`${svc.url}/v1/prices?symbols=ETH`, {
        headers: { 'PAYMENT-SIGNATURE': header },
      })
      expect([other.status, errorOf(await other.json())?.code]).toEqual([402, 'payment_voucher_stale'])
      const next = await voucherPayload(agent, await batchRequirements(svc), 3n * PRICE)
      next.extensions = decodePaymentSignatureHeader(header).extensions
      const conflict = await fetch(`${svc.url}/v1/prices?symbols=ETH`, {
        headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(next) },
      })
      expect([conflict.status, errorOf(await conflict.json())?.code]).toEqual([
        409,
        'payment_identifier_conflict',
      ])
      expect((await storedChannel(svc, channelId))?.chargedCumulativeAmount).toBe((2n * PRICE).toString())
      expect((await storedChannel(svc, channelId))?.pendingRequest).toBeUndefined()
    })

    test('attack: a voucher beyond the deposit is refused', async () => {
      const deposit = PRICE * 10n
      const wallet = await sw.freshWallet(deposit)
      const agent = batchAgentOf(wallet, deposit)
      for (let i = 0; i < 10; i++) expect((await agent.pay(`${svc.url}${PATH}`)).status).toBe(200)
      const requirements = await batchRequirements(svc)
      const beyond = await send(
        svc,
        encodePaymentSignatureHeader(await voucherPayload(agent, requirements, deposit + PRICE)),
      )
      expect(beyond.status).toBe(402)
      expect(beyond.body.refusal?.code).toBe('payment_voucher_exceeds_deposit')
      expect(await ledgerRows(svc, wallet.account.address)).toHaveLength(10)
    })

    test('attack: concurrent vouchers on one channel: exactly one counted per cumulative step', async () => {
      const wallet = await sw.freshWallet(PRICE * 10n)
      const agent = batchAgentOf(wallet, PRICE * 10n)
      expect((await agent.pay(`${svc.url}${PATH}`)).status).toBe(200)
      const requirements = await batchRequirements(svc)
      const same = encodePaymentSignatureHeader(await voucherPayload(agent, requirements, 2n * PRICE))
      const ahead = await Promise.all(
        [3n, 4n, 5n].map(async (k) =>
          encodePaymentSignatureHeader(await voucherPayload(agent, requirements, k * PRICE)),
        ),
      )
      const results = await Promise.all([
        ...Array.from({ length: 20 }, () => send(svc, same)),
        ...ahead.map((h) => send(svc, h)),
      ])
      // The twenty copies of the next step: one counted. A voucher one step further is the next step once
      // that one is committed, and may be counted after it, never twice, never out of order.
      expect(results.slice(0, 20).filter((r) => r.status === 200)).toHaveLength(1)
      expect(results.every((r) => r.status === 200 || r.status === 402)).toBe(true)
      const counted = results.filter((r) => r.status === 200).length
      const channelId = computeChannelId(agent.scheme.buildChannelConfig(requirements), NETWORK)
      expect((await storedChannel(svc, channelId))?.chargedCumulativeAmount).toBe(
        (BigInt(1 + counted) * PRICE).toString(),
      )
      await svc.services.deps.ledger.drain()
      const rows = await ledgerRows(svc, wallet.account.address)
      expect(rows.map((r) => r.nonce.split(':')[1])).toEqual(
        Array.from({ length: 1 + counted }, (_, i) => (BigInt(i + 1) * PRICE).toString()),
      )
    })
  })

  describe.each([
    ['PostgreSQL + Redis (channels in Redis)', { DATABASE_URL, REDIS_URL }],
    ['PostgreSQL only (channels in the ledger database)', { DATABASE_URL }],
  ])('two instances sharing %s', (_name, shared) => {
    let a: Instance
    let b: Instance
    beforeAll(async () => {
      a = await sw.instance({ ...QUIET, ...shared })
      b = await sw.instance({ ...QUIET, ...shared })
    }, 120_000)

    test('attack: one voucher sent to both instances at once is counted once', async () => {
      const wallet = await sw.freshWallet(PRICE * 10n)
      const agent = batchAgentOf(wallet, PRICE * 10n)
      expect((await agent.pay(`${a.url}${PATH}`)).status).toBe(200)
      const requirements = await batchRequirements(a)
      const header = encodePaymentSignatureHeader(await voucherPayload(agent, requirements, 2n * PRICE))
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => send(i % 2 ? a : b, header)))
      expect(results.filter((r) => r.status === 200)).toHaveLength(1)
      const channelId = computeChannelId(agent.scheme.buildChannelConfig(requirements), NETWORK)
      expect((await storedChannel(b, channelId))?.chargedCumulativeAmount).toBe((2n * PRICE).toString())
      await a.services.deps.ledger.drain()
      await b.services.deps.ledger.drain()
      expect(await ledgerRows(a, wallet.account.address)).toHaveLength(2)
    })

    test('behavior: vouchers taken by one instance are claimed by another that never saw them (a restart loses nothing)', async () => {
      const wallet = await sw.freshWallet(PRICE * 10n)
      const agent = batchAgentOf(wallet, PRICE * 10n)
      for (let i = 0; i < 4; i++) expect((await agent.pay(`${a.url}${PATH}`)).status).toBe(200)
      const restarted = await sw.instance({ ...QUIET, ...shared })
      // The agent carries on against the new process, from the stored channel.
      expect((await agent.pay(`${restarted.url}${PATH}`)).status).toBe(200)
      const before = await sw.usdcBalance(restarted.config.payTo)
      const { claimTransactions } = await restarted.services.deps.batch.claimAndSweep()
      expect(claimTransactions.length).toBeGreaterThanOrEqual(1)
      // Other files' channels may share this store: payTo gets at least this channel's five calls.
      expect(await sw.usdcBalance(restarted.config.payTo)).toBeGreaterThanOrEqual(before + 5n * PRICE)
      const requirements = await batchRequirements(restarted)
      const channelId = computeChannelId(agent.scheme.buildChannelConfig(requirements), NETWORK)
      expect((await storedChannel(a, channelId))?.totalClaimed).toBe((5n * PRICE).toString())
    })
  })
})
