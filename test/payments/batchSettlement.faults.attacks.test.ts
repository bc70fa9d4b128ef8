/**
 * x402 `batch-settlement` when the channel storage fails under a voucher's commit, with real faults: a TCP
 * proxy in front of the machine's Redis or PostgreSQL cuts the connection exactly at the commit (after
 * the server applied it: its answer is lost; or before the server saw it). The payer is the OFFICIAL
 * client (@x402/fetch over @x402/evm's batch-settlement scheme), unmodified. The money is counted onchain:
 * what payTo receives after the claims and the sweep, what a refund returns.
 */
import { decodePaymentResponseHeader } from '@x402/core/http'
import { computeChannelId } from '@x402/evm/batch-settlement/client'
import type { Channel } from '@x402/evm/batch-settlement/server'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { NETWORK } from '../../src/chain/network.js'
import { loadConfig } from '../../src/config.js'
import { errorOf } from '../helpers/errorOf.js'
import {
  type FaultProxy,
  faultProxy,
  postgresFraming,
  redisArgs,
  redisFraming,
} from '../helpers/faultProxy.js'
import { type HoldingProxy, holdingProxy } from '../helpers/holdingProxy.js'
import { type Instance, useWorld } from '../helpers/serviceWorld.js'
import { TEST_DATABASE_URL, testDatabase } from '../helpers/testDatabase.js'
import { type BatchAgent, batchAgent } from '../helpers/voucherKit.js'

const PATH = '/v1/prices?symbols=BTC'
const PRICE = 1000n // $0.001, the route's price
const DEPOSIT = PRICE * 10n // the announced minimum deposit
const REDIS = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379')
// Channels of this file in a Redis database of their own: one left claimable by an interrupted run is
// never in the way of another file's claims (they claim every channel of their store).
const REDIS_DB = 5
// Claims and sweeps only when the test asks (the interval is ten minutes, the longest a 900 s withdraw delay allows).
const QUIET = { BATCH_CLAIM_INTERVAL_SECONDS: '600' }

const sw = useWorld()

type Wallet = Awaited<ReturnType<typeof sw.freshWallet>>

/** An agent paying with the official client on one channel, depositing the announced minimum. */
const agentOf = (wallet: Wallet) => batchAgent(sw.chain, wallet.privateKey, DEPOSIT)

async function channelIdOf(instance: Instance, agent: BatchAgent): Promise<string> {
  const { requirements } = instance.services.deps.batch
  const entry = await requirements(PRICE)
  if (entry === undefined) throw new Error('no batch-settlement entry')
  return computeChannelId(agent.scheme.buildChannelConfig(entry), NETWORK).toLowerCase()
}

const stored = (instance: Instance, channelId: string): Promise<Channel | undefined> =>
  instance.services.deps.batch.scheme.getStorage().get(channelId)

/** The ledger's rows of `payer` once the writes made after each response have landed. */
async function ledgerRows(instance: Instance, payer: string) {
  await instance.services.deps.ledger.drain()
  return instance.services.deps.ledger.byPayer(payer)
}

/** Claims this channel's vouchers and sweeps every claimed unit to payTo (other channels of a shared store left alone). */
async function claimAndSweepChannel(instance: Instance, channelId: string) {
  const { claimTransactions } = await instance.services.deps.batch.claimAndSweep([channelId])
  return claimTransactions
}

/** The channel record as the storage writes it (JSON), read from the bytes on the wire. */
const isCommitOf = (channelId: string, charged: bigint) => (record: string) =>
  record.toLowerCase().includes(channelId) &&
  record.includes(`"chargedCumulativeAmount":"${charged}"`) &&
  !record.includes('"pendingRequest"')

/**
 * The voucher's commit as x402's RedisChannelStorage sends it: one EVAL of its compare-and-set script
 * replacing the reserved record (with a pendingRequest) by the charged one (without).
 */
function redisCommit(channelId: string, charged: bigint) {
  const isCommit = isCommitOf(channelId, charged)
  return (request: Buffer) => {
    const [command, , , key, , expected, operation, next] = redisArgs(request)
    return (
      command?.toUpperCase() === 'EVAL' &&
      key?.endsWith(channelId) === true &&
      operation === 'set' &&
      expected?.includes('"pendingRequest"') === true &&
      isCommit(next ?? '')
    )
  }
}

/**
 * The voucher's commit in the ledger database: the transaction's UPDATE writing the charged record, then
 * its COMMIT on the same connection (the request the fault falls on).
 */
function postgresCommit(channelId: string, charged: bigint) {
  const isCommit = isCommitOf(channelId, charged)
  let updatedOn: number | undefined
  return (request: Buffer, connection: number) => {
    const text = request.toString('utf8')
    if (text.includes('UPDATE batch_channels SET record') && isCommit(text)) updatedOn = connection
    else return connection === updatedOn && text[0] === 'Q' && text.includes('COMMIT')
    return false
  }
}

/** Whether the armed fault was applied by now (it is, or it is not, once the call it targets answered). */
const faulted = (proxy: FaultProxy) =>
  Promise.race([proxy.applied.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 50))])

describe('attacks: the commit of a voucher charge lands, its answer is lost', () => {
  test('attack: Redis: the connection drops after the commit ran; ioredis resends it, the compare-and-set meets its own commit ("busy"): the call is served once, the payer continues at the next step, payTo gets exactly the calls served', async () => {
    const proxy = await faultProxy({ host: REDIS.hostname, port: Number(REDIS.port || 6379) }, redisFraming)
    try {
      const svc = await sw.instance({ ...QUIET, REDIS_URL: `redis://127.0.0.1:${proxy.port}/${REDIS_DB}` })
      const wallet = await sw.freshWallet(DEPOSIT)
      const agent = agentOf(wallet)
      const payTo = svc.config.payTo
      const before = await sw.usdcBalance(payTo)
      for (let i = 0; i < 2; i++) expect((await agent.call(`${svc.url}${PATH}`)).status).toBe(200)
      const channelId = await channelIdOf(svc, agent)

      const commit = redisCommit(channelId, 3n * PRICE)
      proxy.arm((request) => (commit(request) ? 'lose-answer' : undefined))
      const lost = await agent.call(`${svc.url}${PATH}`)
      expect(await faulted(proxy)).toBe(true)
      // The charge is in: the call is served, with the scheme's receipt (the client books it from there).
      expect(lost.status).toBe(200)
      const receipt = decodePaymentResponseHeader(lost.receipt ?? '')
      expect(receipt.success).toBe(true)
      expect(receipt.extra?.channelState).toMatchObject({ chargedCumulativeAmount: (3n * PRICE).toString() })

      // The official client's next voucher is the next step: no corrective 402, nothing paid twice.
      expect((await agent.call(`${svc.url}${PATH}`)).status).toBe(200)
      expect(agent.paid).toEqual([200, 200, 200, 200])
      const channel = await stored(svc, channelId)
      expect(channel?.chargedCumulativeAmount).toBe((4n * PRICE).toString())
      expect(channel?.pendingRequest).toBeUndefined()
      expect((await ledgerRows(svc, wallet.account.address)).map((r) => r.amount)).toEqual([
        PRICE,
        PRICE,
        PRICE,
        PRICE,
      ])

      expect(await claimAndSweepChannel(svc, channelId)).toHaveLength(1)
      expect(await sw.usdcBalance(payTo)).toBe(before + 4n * PRICE)
      await svc.stop()
    } finally {
      await proxy.close()
    }
  })

  describe('PostgreSQL (channels in the ledger database)', () => {
    let proxy: FaultProxy
    let svc: Instance
    let database: Awaited<ReturnType<typeof testDatabase>>
    beforeAll(async () => {
      const pg = new URL(TEST_DATABASE_URL)
      proxy = await faultProxy({ host: pg.hostname, port: Number(pg.port || 5432) }, postgresFraming)
      database = await testDatabase()
      const url = new URL(database.url)
      url.hostname = '127.0.0.1'
      url.port = String(proxy.port)
      svc = await sw.instance({ ...QUIET, DATABASE_URL: url.toString() })
    }, 60_000)
    afterAll(async () => {
      await svc?.stop()
      await proxy?.close()
      await database?.drop()
    })

    test('attack: the COMMIT is applied and the connection drops before its answer: the call is served once, the payer continues at the next step, payTo gets exactly the calls served', async () => {
      const wallet = await sw.freshWallet(DEPOSIT)
      const agent = agentOf(wallet)
      await svc.services.deps.batch.claimAndSweep()
      const before = await sw.usdcBalance(svc.config.payTo)
      for (let i = 0; i < 2; i++) expect((await agent.call(`${svc.url}${PATH}`)).status).toBe(200)
      const channelId = await channelIdOf(svc, agent)

      const commit = postgresCommit(channelId, 3n * PRICE)
      proxy.arm((request, connection) => (commit(request, connection) ? 'lose-answer' : undefined))
      const lost = await agent.call(`${svc.url}${PATH}`)
      expect(await faulted(proxy)).toBe(true)
      expect(lost.status).toBe(200)
      const receipt = decodePaymentResponseHeader(lost.receipt ?? '')
      expect(receipt.extra?.channelState).toMatchObject({ chargedCumulativeAmount: (3n * PRICE).toString() })

      expect((await agent.call(`${svc.url}${PATH}`)).status).toBe(200)
      expect(agent.paid).toEqual([200, 200, 200, 200])
      const channel = await stored(svc, channelId)
      expect(channel?.chargedCumulativeAmount).toBe((4n * PRICE).toString())
      expect(channel?.pendingRequest).toBeUndefined()
      expect(await ledgerRows(svc, wallet.account.address)).toHaveLength(4)

      const { claimTransactions } = await svc.services.deps.batch.claimAndSweep()
      expect(claimTransactions).toHaveLength(1)
      expect(await sw.usdcBalance(svc.config.payTo)).toBe(before + 4n * PRICE)
    })

    test('attack: the connection drops before the COMMIT reaches the server: the call is a free 503 (not a 402), nothing is charged, and the reservation is released at once (the next call is served)', async () => {
      const wallet = await sw.freshWallet(DEPOSIT)
      const agent = agentOf(wallet)
      await svc.services.deps.batch.claimAndSweep()
      const before = await sw.usdcBalance(svc.config.payTo)
      for (let i = 0; i < 2; i++) expect((await agent.call(`${svc.url}${PATH}`)).status).toBe(200)
      const channelId = await channelIdOf(svc, agent)

      const commit = postgresCommit(channelId, 3n * PRICE)
      proxy.arm((request, connection) => (commit(request, connection) ? 'drop' : undefined))
      const failed = await agent.call(`${svc.url}${PATH}`)
      expect(await faulted(proxy)).toBe(true)
      expect(failed.status, failed.body.refusal?.code).toBe(503)
      expect(failed.body.error).toMatchObject({ code: 'payment_facilitator_unavailable' })
      expect(failed.receipt).toBeNull()
      expect(Number(failed.retryAfter)).toBeGreaterThan(0)
      const channel = await stored(svc, channelId)
      expect(channel?.chargedCumulativeAmount).toBe((2n * PRICE).toString())
      // Released now, not when the reservation expires (two minutes on).
      expect(channel?.pendingRequest).toBeUndefined()

      // The same step again, at once: served.
      expect((await agent.call(`${svc.url}${PATH}`)).status).toBe(200)
      expect(agent.paid).toEqual([200, 200, 503, 200])
      expect((await stored(svc, channelId))?.chargedCumulativeAmount).toBe((3n * PRICE).toString())
      expect(await ledgerRows(svc, wallet.account.address)).toHaveLength(3)

      await svc.services.deps.batch.claimAndSweep()
      expect(await sw.usdcBalance(svc.config.payTo)).toBe(before + 3n * PRICE)
    })
  })
})

describe('attacks: a cooperative refund while a voucher-paid call is in its handler', () => {
  let coinbase: HoldingProxy
  let svc: Instance
  beforeAll(async () => {
    // The prices route waits on the exchange: held there, a call stays inside its handler.
    coinbase = await holdingProxy(loadConfig(sw.env).upstreams.coinbaseExchange)
    svc = await sw.instance({ ...QUIET, COINBASE_URL: coinbase.url })
  }, 60_000)
  afterAll(async () => {
    await coinbase?.close()
  })

  /**
   * A fresh channel with two calls paid and served, and a third call held inside its handler (its price
   * read of `symbol` held at the Coinbase simulator): the state every test below starts from.
   */
  async function heldThirdCall(symbol: string) {
    const wallet = await sw.freshWallet(DEPOSIT)
    const agent = agentOf(wallet)
    await svc.services.deps.batch.claimAndSweep()
    const before = await sw.usdcBalance(svc.config.payTo)
    for (let i = 0; i < 2; i++) expect((await agent.call(`${svc.url}${PATH}`)).status).toBe(200)
    const channelId = await channelIdOf(svc, agent)
    const hold = coinbase.hold((path) => path.includes(`${symbol}-USD`))
    const inFlight = agent.call(`${svc.url}/v1/prices?symbols=${symbol}`)
    await hold.arrived
    return { wallet, agent, before, channelId, hold, inFlight }
  }

  test('attack: the refund is refused as busy while the call holds the channel; the call is served and paid; the refund after it returns exactly deposit - charged; payTo gets exactly the calls served', async () => {
    const { wallet, agent, before, channelId, hold, inFlight } = await heldThirdCall('ETH')
    expect((await stored(svc, channelId))?.pendingRequest).toBeDefined()
    await expect(agent.scheme.refund(`${svc.url}${PATH}`)).rejects.toThrow(
      /invalid_batch_settlement_evm_channel_busy/,
    )
    expect(await sw.usdcBalance(wallet.account.address)).toBe(0n)
    hold.release()
    expect((await inFlight).status).toBe(200)
    expect((await stored(svc, channelId))?.chargedCumulativeAmount).toBe((3n * PRICE).toString())

    const refund = await agent.scheme.refund(`${svc.url}${PATH}`)
    expect(refund.success).toBe(true)
    expect(await sw.usdcBalance(wallet.account.address)).toBe(DEPOSIT - 3n * PRICE)
    expect(await ledgerRows(svc, wallet.account.address)).toHaveLength(3)
    await svc.services.deps.batch.claimAndSweep()
    expect(await sw.usdcBalance(svc.config.payTo)).toBe(before + 3n * PRICE)
  })

  test('attack: a handler slower than the reservation (its 120 s aged in the store): the refund goes through, the late call is not served and not charged; refund = deposit - charged; payTo gets exactly the calls served', async () => {
    const { wallet, agent, before, channelId, hold, inFlight } = await heldThirdCall('SOL')
    // The reservation outlived: as the store holds it 120 s later (not waited for on the wall clock).
    await svc.services.deps.batch.scheme
      .getStorage()
      .updateChannel(channelId, (current) =>
        current?.pendingRequest === undefined
          ? current
          : { ...current, pendingRequest: { ...current.pendingRequest, expiresAt: Date.now() - 1 } },
      )
    const refund = await agent.scheme.refund(`${svc.url}${PATH}`)
    expect(refund.success).toBe(true)
    expect(await sw.usdcBalance(wallet.account.address)).toBe(DEPOSIT - 2n * PRICE)
    hold.release()
    const late = await inFlight
    expect(late.status).toBe(402)
    expect(late.receipt).toBeNull()
    expect(await ledgerRows(svc, wallet.account.address)).toHaveLength(2)
    await svc.services.deps.batch.claimAndSweep()
    expect(await sw.usdcBalance(svc.config.payTo)).toBe(before + 2n * PRICE)
  })

  test("attack: the same voucher sent again once the held call's reservation lapsed: the copy is served, the held call then is not (one charge, one call); payTo gets exactly the calls served", async () => {
    const { wallet, agent, before, channelId, hold, inFlight } = await heldThirdCall('LINK')
    const voucher = agent.signatures.at(-1)
    if (voucher === undefined) throw new Error('the held call sent no payment')
    expect(agent.signatures).toHaveLength(3)
    expect((await stored(svc, channelId))?.pendingRequest).toBeDefined()

    // The held call outlives its reservation (maxTimeoutSeconds, 120 s), as both the scheme's expiry and
    // the gate read it: Date alone is moved, and only while the call is held (timers and the chain stay
    // real; Date keeps advancing from there).
    let copy: Response
    let late: Awaited<ReturnType<typeof agent.call>>
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true })
    try {
      vi.setSystemTime(Date.now() + 121_000)
      // The very same PAYMENT-SIGNATURE again, on a call that is not held: it reserves the lapsed
      // channel, commits this voucher and is served.
      copy = await fetch(`${svc.url}${PATH}`, { headers: { 'PAYMENT-SIGNATURE': voucher } })
      expect(copy.status).toBe(200)
      expect(
        decodePaymentResponseHeader(copy.headers.get('payment-response') ?? '').extra?.channelState,
      ).toMatchObject({ chargedCumulativeAmount: (3n * PRICE).toString() })
      await copy.arrayBuffer()
      hold.release()
      late = await inFlight
    } finally {
      vi.useRealTimers()
      hold.release()
    }
    // Its commit meets the copy's (busy) and the stored voucher is its own, but that charge is the copy's:
    // the late call is refused, with no receipt.
    expect(late.status, JSON.stringify(late.body)).toBe(402)
    expect(errorOf(late.body)?.code).toBe('payment_channel_busy')
    expect(late.receipt).toBeNull()
    expect(agent.paid).toEqual([200, 200, 402])

    const channel = await stored(svc, channelId)
    expect(channel?.chargedCumulativeAmount).toBe((3n * PRICE).toString())
    expect(channel?.pendingRequest).toBeUndefined()
    const rows = await ledgerRows(svc, wallet.account.address)
    expect(rows.filter((r) => r.nonce === `${channelId}:${3n * PRICE}`)).toHaveLength(1)
    expect(rows.map((r) => r.amount)).toEqual([PRICE, PRICE, PRICE])
    // Served: the two calls before and the copy.
    const served = agent.paid.filter((s) => s === 200).length + (copy.status === 200 ? 1 : 0)
    expect(served).toBe(3)
    await svc.services.deps.batch.claimAndSweep()
    expect(await sw.usdcBalance(svc.config.payTo)).toBe(before + BigInt(served) * PRICE)
  })
})
