import { mkdirSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import type { AddressInfo } from 'node:net'
import { loadavg } from 'node:os'
import { Worker } from 'node:worker_threads'
import { serve } from '@hono/node-server'
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http'
import type { PaymentRequired } from '@x402/core/types'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { x402Client } from '@x402/fetch'
import autocannon from 'autocannon'
import pg from 'pg'
import { type Address, createPublicClient, erc20Abi, type Hex, http, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { USDC } from '../src/chain/network.js'
import { loadConfig, UPSTREAM_PORT_COUNT } from '../src/config.js'
import { freePort, freePortRange } from '../src/devnet/anvil.js'
import { demoAccounts } from '../src/devnet/devnetAccounts.js'
import type { DevnetWorld } from '../src/devnet/startDevnetWorld.js'
import type { createServices } from '../src/services.js'
import { startStack } from '../src/stack.js'
import { fundWallets, sendUtil } from './devnetFunding.js'
import { startBareHono, startReferenceStack } from './referenceStack.js'
import { type VoucherAgent, voucherAgent } from './voucherAgent.js'
import { VOUCHER_LOAD_WORKER, type VoucherLoadInput, type VoucherLoadResult } from './voucherLoadWorker.js'

/**
 * `npm run bench` (payment rails, issue 24): this service's paid and unpaid paths beside the reference
 * stack (bench/referenceStack.ts: Hono + @x402/hono + in-process facilitator) and a bare Hono handler,
 * started by this script on the same devnet, in the same run.
 *
 * A. Automining devnet: a whole paid call, sequential, signing excluded (ours `exact`, the reference's
 *    `exact` and ours `batch-settlement` voucher calls on one channel, interleaved so all three see the
 *    same machine); the gate's added latency (Server-Timing `gate`); unpaid 402s per second (autocannon,
 *    16 connections) for the bare handler, ours and the reference.
 * B. Base's blocks (one every 200 ms, since Denim), PostgreSQL ledger and Redis shared state: paid calls per second
 *    on one relayer key, one caller per wallet (a wallet settles one payment at a time), the callers in a
 *    worker thread, each call's receipt checked included onchain.
 * C. B's PostgreSQL and Redis, automining: `batch-settlement` voucher calls per second on a cached read,
 *    one channel per wallet (opened by the official client's deposit), vouchers signed ahead in order, one
 *    in flight per channel, the callers in a worker thread.
 * D. B's PostgreSQL and Redis, automining: calls paid by UTIL credit (issue 25) per second on the cached
 *    read. Each wallet sends UTIL to the credit recipient and tops up once with the official client; then
 *    `exact` authorizations signed ahead are sent, one in flight per wallet, all wallets at once (callers in
 *    a worker thread); nothing settles. The credit debited is checked against half the price of each call
 *    served, and payTo's USDC against no change.
 * E. A again on a chain mining a block every 200 ms (Base today), ours and the reference on the same chain:
 *    each settlement answered when its block includes it; the process CPU per call beside the reference's.
 * After each batch phase (A, C, E) the stored vouchers are claimed and swept (the service's claimAndSweep)
 * and the USDC payTo received is checked against the prices of the calls served.
 */
const SEQUENTIAL = Number(process.env.BENCH_RAILS_SEQUENTIAL ?? 60)
const UNPAID_S = Number(process.env.BENCH_RAILS_UNPAID_S ?? 5)
const WALLETS = Number(process.env.BENCH_RAILS_WALLETS ?? 500)
const CALLS_PER_WALLET = Number(process.env.BENCH_RAILS_CALLS_PER_WALLET ?? 3)
const CHANNELS = Number(process.env.BENCH_RAILS_CHANNELS ?? 200)
const VOUCHERS = Number(process.env.BENCH_RAILS_VOUCHERS_PER_CHANNEL ?? 40)
const VOUCHER_WARMUP = Number(process.env.BENCH_RAILS_VOUCHER_WARMUP ?? 5)
const CREDIT_WALLETS = Number(process.env.BENCH_RAILS_CREDIT_WALLETS ?? 50)
const CREDIT_CALLS = Number(process.env.BENCH_RAILS_CREDIT_CALLS_PER_WALLET ?? 80)
const UTIL_PER_WALLET = 1_000n * 10n ** 18n
/** Where to write a CPU profile of the service thread during phase C (unset: none; it slows the phase). */
const CPU_PROFILE = process.env.BENCH_RAILS_CPU_PROFILE
const PHASES = new Set(
  (process.env.BENCH_RAILS_PHASES ?? 'A,B,C,D,E')
    .toUpperCase()
    .split(',')
    .map((p) => p.trim()),
)
/** A run of some phases only writes a file of its own: the full record of the last whole run stays. */
const RESULT_FILE = ['A', 'B', 'C', 'D', 'E'].every((p) => PHASES.has(p))
  ? 'bench/results/payment-rails.json'
  : `bench/results/payment-rails-${[...PHASES].sort().join('')}.json`
const FUNDED = 100_000n
/** Vouchers are claimed when the bench asks, never by the interval in the middle of a phase. */
const NO_INTERVAL_CLAIMS = { BATCH_CLAIM_INTERVAL_SECONDS: '600' }
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'
/**
 * Phase C's channels live in Redis; a logical database of their own keeps the claim round from meeting
 * channels other processes (tests on other devnets) store under the same keys.
 */
const BATCH_REDIS_URL = process.env.BENCH_RAILS_BATCH_REDIS_URL ?? 'redis://127.0.0.1:6379/13'

interface Service {
  url: string
  rpcUrl: string
  payTo: `0x${string}`
  credit: { recipient: Address; utilToken: Address | null }
  services: Awaited<ReturnType<typeof createServices>>
  close(): Promise<void>
}

async function startService(extraEnv: Record<string, string>): Promise<Service> {
  const env = {
    DEVNET_BLOCK_TIME: '0',
    // Our code is measured here, not the upstreams' documented limits (test/upstreams/ holds those).
    DEVNET_UPSTREAM_LIMITS: 'off',
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory://',
    DEVNET_RPC_PORT: String(await freePort()),
    DEVNET_UPSTREAM_PORT: String(await freePortRange(UPSTREAM_PORT_COUNT)),
    RATE_LIMIT_UNPAID: '100000000',
    RATE_LIMIT_PAID: '100000000',
    SURGE_CAPACITY_RPS: '1000000',
    ...extraEnv,
  }
  const config = loadConfig(env)
  const stack = await startStack({ config, world: { clock: Date.now, pushIntervalMs: 0 } })
  const { services, world } = stack as typeof stack & { world: DevnetWorld }
  const { app, createServer } = stack.http
  const server = serve({ fetch: app.fetch, createServer, port: 0, hostname: '127.0.0.1' })
  await new Promise((r) => server.once('listening', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    rpcUrl: world.rpcUrl,
    payTo: config.payTo,
    credit: { recipient: config.payments.creditRecipient, utilToken: config.utilToken },
    services,
    async close() {
      server.close()
      await stack.stop()
    },
  }
}

/**
 * `count` new wallets holding `amount` of `token` (USDC unless said) each, funded concurrently from one demo
 * account, and `gasWei` of ETH each (set directly: anvil's cheat code).
 */
async function challengeOf(url: string): Promise<PaymentRequired> {
  const res = await fetch(url)
  await res.body?.cancel()
  return decodePaymentRequiredHeader(res.headers.get('payment-required') as string)
}

const clientOf = (key: Hex) =>
  new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(key)))
const sign = async (key: Hex, challenge: PaymentRequired) =>
  encodePaymentSignatureHeader(await clientOf(key).createPaymentPayload(challenge))

interface PaidAnswer {
  ms: number
  /**
   * The process's CPU while the call ran: the bench's client and the server called (ours or the reference,
   * both in this process; one call at a time), so the client's share is the same on both sides.
   */
  cpuMs: number
  /** The Server-Timing entries (`gate`, `verify`, `handler`, `settle`, …) in ms. */
  timing: Record<string, number>
  transaction: string | undefined
}

async function paidCall(url: string, header: string): Promise<PaidAnswer> {
  const started = performance.now()
  const cpuStarted = process.cpuUsage()
  const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': header } })
  await res.arrayBuffer()
  const ms = performance.now() - started
  const cpu = process.cpuUsage(cpuStarted)
  const cpuMs = (cpu.user + cpu.system) / 1000
  if (res.status !== 200) throw new Error(`paid call answered ${res.status}`)
  const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') as string)
  if (!receipt.success) throw new Error(`paid call not settled: ${receipt.errorReason}`)
  const timing: Record<string, number> = {}
  for (const m of (res.headers.get('server-timing') ?? '').matchAll(/(\w+);dur=([\d.]+)/g)) {
    timing[m[1] as string] = Number(m[2])
  }
  return { ms, cpuMs, timing, transaction: receipt.transaction }
}

const timingP50 = (calls: PaidAnswer[], name: string) => p50(calls.map((c) => c.timing[name] ?? Number.NaN))

const usdcOf = (chain: PublicClient, owner: Address) =>
  chain.readContract({ address: USDC, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

/**
 * Claims and sweeps every stored voucher (what the service's interval does) and checks that payTo received
 * exactly `expected`: the prices of the batch calls served since the last sweep.
 */
async function claimCheck(service: Service, chain: PublicClient, expected: bigint) {
  const before = await usdcOf(chain, service.payTo)
  const started = performance.now()
  const { claimTransactions, sweep } = await service.services.deps.batch.claimAndSweep()
  const ms = performance.now() - started
  const received = (await usdcOf(chain, service.payTo)) - before
  return {
    claimTransactions: claimTransactions.length,
    swept: sweep !== undefined,
    claimAndSweepMs: Math.round(ms),
    payToReceived: received.toString(),
    pricesServed: expected.toString(),
    matches: received === expected,
  }
}

/** The challenge's batch-settlement entry: a call's price and the smallest deposit (atomic USDC). */
function batchTerms(challenge: PaymentRequired): { price: bigint; minDeposit: bigint } {
  const entry = challenge.accepts.find((a) => a.scheme === 'batch-settlement')
  if (entry === undefined) throw new Error('the challenge offers no batch-settlement entry')
  return { price: BigInt(entry.amount), minDeposit: BigInt(String(entry.extra.minDeposit ?? 0)) }
}

/** A deposit covering `calls` calls, at least the announced minimum. */
const depositFor = (terms: { price: bigint; minDeposit: bigint }, calls: number) =>
  terms.price * BigInt(calls) > terms.minDeposit ? terms.price * BigInt(calls) : terms.minDeposit

/** 402s per second; autocannon in a worker thread of its own, so it does not take the servers' thread. */
async function unpaidRps(url: string): Promise<number> {
  const result = await autocannon({ url, connections: 16, duration: UNPAID_S, workers: 1 })
  return Math.round(result.requests.average)
}

async function phaseA(blockTimeS = 0) {
  const ours = await startService({ ...NO_INTERVAL_CLAIMS, DEVNET_BLOCK_TIME: String(blockTimeS) })
  const reference = await startReferenceStack({
    rpcUrl: ours.rpcUrl,
    relayerKey: (demoAccounts[1] as { privateKey: Hex }).privateKey,
    payTo: ours.payTo,
  })
  const bare = await startBareHono()
  try {
    const ourUrl = `${ours.url}/v1/prices?symbols=BTC`
    const refUrl = `${reference.url}/v1/prices`
    const chain = createPublicClient({ transport: http(ours.rpcUrl) }) as PublicClient
    const keys = await fundWallets(ours.rpcUrl, 2 * (SEQUENTIAL + 10), FUNDED, USDC)
    const [ourChallenge, refChallenge] = await Promise.all([challengeOf(ourUrl), challengeOf(refUrl)])
    const ourHeaders = await Promise.all(keys.slice(0, SEQUENTIAL + 10).map((k) => sign(k, ourChallenge)))
    const refHeaders = await Promise.all(keys.slice(SEQUENTIAL + 10).map((k) => sign(k, refChallenge)))
    // One batch-settlement channel: its deposit (the first call, by the official client) covers every call.
    const terms = batchTerms(ourChallenge)
    const deposit = depositFor(terms, SEQUENTIAL + 11)
    const [payerKey] = await fundWallets(ours.rpcUrl, 1, deposit, USDC)
    const payer = voucherAgent(payerKey as Hex, chain, deposit)
    await payer.open(ourUrl)
    const voucherHeaders = await payer.presign(ourChallenge, SEQUENTIAL + 10)
    const ourCalls: PaidAnswer[] = []
    const refCalls: PaidAnswer[] = []
    const voucherCalls: PaidAnswer[] = []
    for (let i = 0; i < SEQUENTIAL + 10; i++) {
      const [a, b, c] = [
        await paidCall(ourUrl, ourHeaders[i] as string),
        await paidCall(refUrl, refHeaders[i] as string),
        await paidCall(ourUrl, voucherHeaders[i] as string),
      ]
      // The first ten warm all up (JIT, pools, learned gas).
      if (i >= 10) {
        ourCalls.push(a)
        refCalls.push(b)
        voucherCalls.push(c)
      }
    }
    // The same `exact` path for a payer that pays again (an agent's steady state): one wallet, calls one
    // after another, so its balance read (one per BALANCE_TTL_MS) is mostly fresh; the interleaved series
    // above is a new wallet per call (a balance read each).
    const [warmKey] = await fundWallets(ours.rpcUrl, 1, 10_000_000n, USDC)
    const warmHeaders: string[] = []
    for (let i = 0; i < SEQUENTIAL + 10; i++) warmHeaders.push(await sign(warmKey as Hex, ourChallenge))
    const warmCalls: PaidAnswer[] = []
    for (let i = 0; i < SEQUENTIAL + 10; i++) {
      const answer = await paidCall(ourUrl, warmHeaders[i] as string)
      if (i >= 10) warmCalls.push(answer)
    }
    // The deposit call and every voucher call were served (paidCall throws on anything else).
    const claim = await claimCheck(ours, chain, terms.price * BigInt(SEQUENTIAL + 11))
    const rps = {
      bareHono: await unpaidRps(`${bare.url}/v1/prices`),
      ours: await unpaidRps(ourUrl),
      reference: await unpaidRps(refUrl),
    }
    const ourP50 = p50(ourCalls.map((c) => c.ms))
    const refP50 = p50(refCalls.map((c) => c.ms))
    const voucherP50 = p50(voucherCalls.map((c) => c.ms))
    const cpu = (calls: PaidAnswer[]) => round(p50(calls.map((c) => c.cpuMs)))
    const exactAutomine = {
      blockTimeS,
      paidCallMs: {
        ours: ourP50,
        reference: refP50,
        ratio: round(ourP50 / refP50),
        samples: ourCalls.length,
      },
      processCpuMsPerCallP50: {
        oursExact: cpu(ourCalls),
        oursVoucher: cpu(voucherCalls),
        referenceExact: cpu(refCalls),
        exactRatio: round(cpu(ourCalls) / cpu(refCalls)),
        voucherRatio: round(cpu(voucherCalls) / cpu(refCalls)),
      },
      gateMsP50: timingP50(ourCalls, 'gate'),
      admitMsP50: timingP50(ourCalls, 'admit'),
      ledgerMsP50: timingP50(ourCalls, 'ledger'),
      verifyMsP50: timingP50(ourCalls, 'verify'),
      warmPayer: {
        paidCallMs: p50(warmCalls.map((c) => c.ms)),
        gateMsP50: timingP50(warmCalls, 'gate'),
        admitMsP50: timingP50(warmCalls, 'admit'),
        ledgerMsP50: timingP50(warmCalls, 'ledger'),
        verifyMsP50: timingP50(warmCalls, 'verify'),
        samples: warmCalls.length,
      },
      unpaid402PerSec: {
        ...rps,
        oursVsBare: round(rps.ours / rps.bareHono),
        oursVsReference: round(rps.ours / rps.reference),
        referenceVsBare: round(rps.reference / rps.bareHono),
      },
    }
    const batchAutomine = {
      voucherCallMs: {
        ours: voucherP50,
        referenceExact: refP50,
        ratio: round(voucherP50 / refP50),
        oursExact: ourP50,
        samples: voucherCalls.length,
      },
      // `gate` leaves out the handler and `settle` (for a voucher: the charge committed in the channel
      // storage, no chain); gate + settle is everything the payment adds to the call.
      serverTimingMsP50: {
        gate: timingP50(voucherCalls, 'gate'),
        verify: timingP50(voucherCalls, 'verify'),
        settle: timingP50(voucherCalls, 'settle'),
        handler: timingP50(voucherCalls, 'handler'),
        gatePlusSettle: p50(voucherCalls.map((c) => (c.timing.gate ?? Number.NaN) + (c.timing.settle ?? 0))),
      },
      gateMsP99: p99(voucherCalls.map((c) => c.timing.gate ?? Number.NaN)),
      channelStorage: 'ledger database (in-memory PGlite)',
      claim,
    }
    return { exactAutomine, batchAutomine }
  } finally {
    reference.close()
    bare.close()
    await ours.close()
  }
}

/**
 * The load of phase B runs in a worker thread: 500 concurrent callers' fetches in the service's own thread
 * would take the CPU the gate needs (the service is measured, not the client).
 */
const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
;(async () => {
  const { url, groups } = workerData
  const answers = []
  let failures = 0
  const started = performance.now()
  await Promise.all(groups.map(async (mine) => {
    for (const header of mine) {
      const t0 = performance.now()
      const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': header } })
      await res.arrayBuffer()
      if (res.status === 200) answers.push({ ms: performance.now() - t0, receipt: res.headers.get('payment-response') })
      else failures++
    }
  }))
  parentPort.postMessage({ answers, failures, elapsedMs: performance.now() - started })
})()
`

interface LoadResult {
  answers: { ms: number; receipt: string }[]
  failures: number
  elapsedMs: number
}

/**
 * The production shape: PostgreSQL for the ledger (a schema of its own, dropped after), Redis for shared
 * state; a block every `blockTimeS` seconds (0: automine).
 */
async function withProductionService<T>(
  options: { redisUrl: string; blockTimeS: number },
  run: (ours: Service) => Promise<T>,
): Promise<T> {
  const schema = `bench_rails_${Date.now()}`
  const db = new URL(DATABASE_URL)
  db.searchParams.set('options', `-c search_path=${schema}`)
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  try {
    const ours = await startService({
      ...NO_INTERVAL_CLAIMS,
      DEVNET_BLOCK_TIME: String(options.blockTimeS),
      DATABASE_URL: db.toString(),
      REDIS_URL: options.redisUrl,
    })
    try {
      return await run(ours)
    } finally {
      await ours.close()
    }
  } finally {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`)
    await admin.end()
  }
}

/** Base's block time since Denim (2026-11-05), for phases B and E. */
const BASE_BLOCK_TIME_S = 0.2

const phaseB = () =>
  withProductionService({ redisUrl: REDIS_URL, blockTimeS: BASE_BLOCK_TIME_S }, async (ours) => {
    const url = `${ours.url}/v1/prices?symbols=BTC`
    const keys = await fundWallets(ours.rpcUrl, WALLETS, FUNDED, USDC)
    const challenge = await challengeOf(url)
    const groups = await Promise.all(
      keys.map((k) => Promise.all(Array.from({ length: CALLS_PER_WALLET }, () => sign(k, challenge)))),
    )
    const worker = new Worker(LOAD_WORKER, { eval: true, workerData: { url, groups } })
    const load = await new Promise<LoadResult>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
    })
    await worker.terminate()
    const chain = createPublicClient({ transport: http(ours.rpcUrl) })
    const hashes = [
      ...new Set(load.answers.map((a) => decodePaymentResponseHeader(a.receipt).transaction as Hex)),
    ]
    const receipts = await Promise.all(hashes.map((hash) => chain.getTransactionReceipt({ hash })))
    return {
      blockTimeS: BASE_BLOCK_TIME_S,
      ledger: 'PostgreSQL',
      sharedState: 'Redis',
      wallets: WALLETS,
      calls: load.answers.length + load.failures,
      served: load.answers.length,
      failures: load.failures,
      paidCallsPerSec: Math.round(load.answers.length / (load.elapsedMs / 1000)),
      receiptsIncludedSuccess: receipts.filter((r) => r.status === 'success').length,
      blocksUsed: new Set(receipts.map((r) => r.blockNumber)).size,
      callMsP50: p50(load.answers.map((a) => a.ms)),
    }
  })

/**
 * Phase C: voucher calls per second on the cached read, one channel per wallet. Setup (funding, the
 * deposits through the official client, the signing of every voucher) happens before the timed window.
 */
const phaseC = () =>
  // Automine: a voucher call never waits for the chain; only the deposits and the claim, outside the
  // timed window, do (and a world with 2 s blocks takes ~100 s to come up: its setup transactions).
  withProductionService({ redisUrl: BATCH_REDIS_URL, blockTimeS: 0 }, async (ours) => {
    stage('C: service up')
    const url = `${ours.url}/v1/prices?symbols=BTC`
    const chain = createPublicClient({ transport: http(ours.rpcUrl) }) as PublicClient
    const challenge = await challengeOf(url)
    const terms = batchTerms(challenge)
    const perChannel = VOUCHER_WARMUP + VOUCHERS
    // The deposit covers the opening call and every voucher after it.
    const deposit = depositFor(terms, perChannel + 1)
    const keys = await fundWallets(ours.rpcUrl, CHANNELS, deposit, USDC)
    const payers: VoucherAgent[] = keys.map((k) => voucherAgent(k, chain, deposit))
    stage(`C: ${CHANNELS} wallets funded`)
    await Promise.all(payers.map((p) => p.open(url)))
    stage(`C: ${CHANNELS} channels opened`)
    const signStarted = performance.now()
    const groups: string[][] = []
    for (const p of payers) groups.push(await p.presign(challenge, perChannel))
    const signMs = performance.now() - signStarted
    stage(`C: ${CHANNELS * perChannel} vouchers signed`)

    const profiler = CPU_PROFILE === undefined ? undefined : new Session()
    if (profiler !== undefined) {
      profiler.connect()
      await profiler.post('Profiler.enable')
      await profiler.post('Profiler.start')
    }
    const loadBefore = loadavg()[0] as number
    const load = await sequencedLoad({ url, groups, warmup: VOUCHER_WARMUP })
    const loadAfter = loadavg()[0] as number
    if (profiler !== undefined && CPU_PROFILE !== undefined) {
      const { profile } = await profiler.post('Profiler.stop')
      writeFileSync(CPU_PROFILE, JSON.stringify(profile))
      profiler.disconnect()
    }

    // Every call charged: each channel's opening call, its warm-up and timed vouchers that answered 200.
    const charged = BigInt(CHANNELS + (CHANNELS * VOUCHER_WARMUP - load.warmupFailures) + load.served)
    stage(`C: ${load.served} timed calls served`)
    const claim = await claimCheck(ours, chain, terms.price * charged)
    stage('C: claimed and swept')
    // This run's channels, all claimed now, leave the store (no other process's channel is touched).
    const storage = ours.services.deps.batch.scheme.getStorage()
    await Promise.all(payers.map((p) => storage.updateChannel(p.channelId, () => undefined)))
    return {
      blockTimeS: 0,
      ledger: 'PostgreSQL',
      channelStorage: 'Redis',
      read: 'GET /v1/prices?symbols=BTC (cached)',
      channels: CHANNELS,
      vouchersPerChannel: VOUCHERS,
      warmupPerChannel: VOUCHER_WARMUP,
      warmupFailures: load.warmupFailures,
      calls: load.served + load.failures,
      served: load.served,
      failures: load.failures,
      failureStatuses: load.failureStatuses,
      voucherCallsPerSec: Math.round(load.served / (load.elapsedMs / 1000)),
      elapsedMs: Math.round(load.elapsedMs),
      callMsP50: p50(load.callMs),
      callMsP99: p99(load.callMs),
      gateMsP50: p50(load.gateMs),
      settleMsP50: p50(load.settleMs),
      signingMsPerVoucher: round(signMs / (CHANNELS * perChannel)),
      loadAverage1m: { before: round(loadBefore), after: round(loadAfter) },
      cpuProfile: CPU_PROFILE ?? null,
      claim,
    }
  })

/**
 * Phase D: calls paid by UTIL credit per second on the cached read. Setup (UTIL to each wallet, its
 * transfer to the recipient, its top-up call, every authorization signed) happens before the timed window;
 * the authorizations are valid for the challenge's 120 s, which the timed window stays well within.
 */
const phaseD = () =>
  withProductionService({ redisUrl: REDIS_URL, blockTimeS: 0 }, async (ours) => {
    stage('D: service up')
    const url = `${ours.url}/v1/prices?symbols=BTC`
    const chain = createPublicClient({ transport: http(ours.rpcUrl) }) as PublicClient
    const { recipient, utilToken } = ours.credit
    if (utilToken === null) throw new Error('no UTIL token on this devnet')
    // 1,000 UTIL each: about $0.10 of credit, 200 calls at half of $0.001; and gas for its transfer.
    const keys = await fundWallets(ours.rpcUrl, CREDIT_WALLETS, UTIL_PER_WALLET, utilToken, 10n ** 16n)
    stage(`D: ${CREDIT_WALLETS} wallets hold UTIL`)
    const hashes = await Promise.all(
      keys.map((key) => sendUtil(ours.rpcUrl, utilToken, key, recipient, UTIL_PER_WALLET)),
    )
    const challenge = await challengeOf(url)
    for (const [i, key] of keys.entries()) {
      const res = await fetch(url, {
        headers: { 'PAYMENT-SIGNATURE': await sign(key, challenge), 'X-UTIL-TOPUP': hashes[i] as Hex },
      })
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`top-up call answered ${res.status}`)
    }
    stage(`D: ${CREDIT_WALLETS} wallets topped up`)
    // Sequential first, one wallet, one call at a time: the gate's own latency on the credit path.
    const sequentialKey = keys[0] as Hex
    const sequentialHeaders = await Promise.all(
      Array.from({ length: SEQUENTIAL + 10 }, () => challengeOf(url).then((c) => sign(sequentialKey, c))),
    )
    const sequential: PaidAnswer[] = []
    for (const [i, header] of sequentialHeaders.entries()) {
      const answer = await paidCall(url, header)
      if (answer.transaction !== '') throw new Error('a credit call settled onchain')
      if (i >= 10) sequential.push(answer)
    }
    stage(`D: ${SEQUENTIAL} sequential credit calls`)
    const book = ours.services.deps.creditBook
    const creditBefore = await Promise.all(keys.map((k) => book.balance(privateKeyToAccount(k).address)))
    const payToBefore = await usdcOf(chain, ours.payTo)
    const fresh = await challengeOf(url)
    const signStarted = performance.now()
    const groups = await Promise.all(
      keys.map((k) =>
        Promise.all(Array.from({ length: VOUCHER_WARMUP + CREDIT_CALLS }, () => sign(k, fresh))),
      ),
    )
    const signMs = performance.now() - signStarted
    stage(`D: ${CREDIT_WALLETS * (VOUCHER_WARMUP + CREDIT_CALLS)} authorizations signed`)
    const load = await sequencedLoad({ url, groups, warmup: VOUCHER_WARMUP })
    stage(`D: ${load.served} timed calls served`)
    const creditAfter = await Promise.all(keys.map((k) => book.balance(privateKeyToAccount(k).address)))
    const debited = creditBefore.reduce((s, b, i) => s + b - (creditAfter[i] ?? 0n), 0n)
    const half = BigInt(fresh.accepts[0]?.amount ?? 0) / 2n
    const creditCalls = BigInt(CREDIT_WALLETS * VOUCHER_WARMUP - load.warmupFailures + load.served)
    return {
      blockTimeS: 0,
      ledger: 'PostgreSQL',
      sharedState: 'Redis',
      read: 'GET /v1/prices?symbols=BTC (cached)',
      sequential: {
        calls: sequential.length,
        callMsP50: p50(sequential.map((c) => c.ms)),
        gateMsP50: timingP50(sequential, 'gate'),
        verifyMsP50: timingP50(sequential, 'verify'),
        claimMsP50: timingP50(sequential, 'claim'),
        creditMsP50: timingP50(sequential, 'credit'),
        handlerMsP50: timingP50(sequential, 'handler'),
      },
      wallets: CREDIT_WALLETS,
      callsPerWallet: CREDIT_CALLS,
      warmupPerWallet: VOUCHER_WARMUP,
      warmupFailures: load.warmupFailures,
      served: load.served,
      failures: load.failures,
      failureStatuses: load.failureStatuses,
      creditCallsPerSec: Math.round(load.served / (load.elapsedMs / 1000)),
      elapsedMs: Math.round(load.elapsedMs),
      callMsP50: p50(load.callMs),
      callMsP99: p99(load.callMs),
      gateMsP50: p50(load.gateMs),
      signingMsPerAuthorization: round(signMs / (CREDIT_WALLETS * (VOUCHER_WARMUP + CREDIT_CALLS))),
      creditDebitedAtomic: debited.toString(),
      creditDebitedMatches: debited === half * creditCalls,
      payToUsdcUnchanged: (await usdcOf(chain, ours.payTo)) === payToBefore,
    }
  })

/** The wallet sends all its UTIL to the credit recipient; the mined transfer's hash (its top-up). */
/**
 * Sends each group's pre-signed payment headers in order, one in flight per group, all groups at once, from
 * a worker thread (bench/voucherLoadWorker.ts: the callers never take the service thread's CPU).
 */
async function sequencedLoad(input: VoucherLoadInput): Promise<VoucherLoadResult> {
  const worker = new Worker(VOUCHER_LOAD_WORKER, { eval: true, workerData: input })
  try {
    return await new Promise<VoucherLoadResult>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
    })
  } finally {
    await worker.terminate()
  }
}

const benchStarted = performance.now()
/** Progress on stderr: the phases take minutes. */
function stage(what: string): void {
  console.error(`[rails ${((performance.now() - benchStarted) / 1000).toFixed(1)} s] ${what}`)
}

function p50(values: number[]): number {
  return quantile(values, 0.5)
}
function p99(values: number[]): number {
  return quantile(values, 0.99)
}
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return round(sorted[Math.floor(sorted.length * q)] ?? Number.NaN)
}
function round(v: number): number {
  return Math.round(v * 1000) / 1000
}

async function main(): Promise<void> {
  const record: Record<string, unknown> = {
    at: new Date().toISOString(),
    node: process.version,
    loadAverageAtStart: loadavg().map(round),
  }
  if (PHASES.has('A')) {
    const { exactAutomine, batchAutomine } = await phaseA()
    console.log(JSON.stringify({ exactAutomine }))
    console.log(JSON.stringify({ batchAutomine }))
    Object.assign(record, { exactAutomine, batchAutomine })
  }
  if (PHASES.has('B')) {
    const exactBaseBlocks = await phaseB()
    console.log(JSON.stringify({ exactBaseBlocks }))
    record.exactBaseBlocks = exactBaseBlocks
  }
  if (PHASES.has('E')) {
    const { exactAutomine: exactBase, batchAutomine: batchBase } = await phaseA(BASE_BLOCK_TIME_S)
    console.log(JSON.stringify({ exactBase }))
    console.log(JSON.stringify({ batchBase }))
    Object.assign(record, { exactBase, batchBase })
  }
  if (PHASES.has('C')) {
    const batchThroughput = await phaseC()
    console.log(JSON.stringify({ batchThroughput }))
    record.batchThroughput = batchThroughput
  }
  if (PHASES.has('D')) {
    const creditThroughput = await phaseD()
    console.log(JSON.stringify({ creditThroughput }))
    record.creditThroughput = creditThroughput
  }
  record.loadAverageAtEnd = loadavg().map(round)
  mkdirSync('bench/results', { recursive: true })
  writeFileSync(RESULT_FILE, `${JSON.stringify(record, null, 2)}\n`)
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
