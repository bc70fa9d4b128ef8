import { mkdirSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
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
import { createPublicClient, encodeFunctionData, erc20Abi, type Hex, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { USDC } from '../src/chain/network.js'
import { loadConfig, UPSTREAM_PORT_COUNT } from '../src/config.js'
import { freePort, freePortRange } from '../src/devnet/anvil.js'
import { demoAccounts } from '../src/devnet/devnetAccounts.js'
import { startDevnetWorld } from '../src/devnet/startDevnetWorld.js'
import { createHttpService } from '../src/httpService.js'
import { createLogger } from '../src/logger.js'
import { createFeeBook } from '../src/payments/feeBook.js'
import { createRelayerSender } from '../src/payments/relayerSender.js'
import { createReadiness } from '../src/readiness.js'
import { createServices } from '../src/services.js'
import { startBareHono, startReferenceStack } from './referenceStack.js'

/**
 * `npm run bench` (payment rails, issue 24): this service's paid and unpaid paths beside the reference
 * stack (bench/referenceStack.ts: Hono + @x402/hono + in-process facilitator) and a bare Hono handler,
 * started by this script on the same devnet, in the same run.
 *
 * A. Automining devnet: a whole paid call, sequential, signing excluded (ours vs the reference, calls
 *    interleaved so both see the same machine); the gate's added latency (Server-Timing `gate`); unpaid
 *    402s per second (autocannon, 16 connections) for the bare handler, ours and the reference.
 * B. Base-like devnet (a block every 2 s), PostgreSQL ledger and Redis shared state: paid calls per second
 *    on one relayer key, one caller per wallet (a wallet settles one payment at a time), the callers in a
 *    worker thread, each call's receipt checked included onchain.
 */
const SEQUENTIAL = Number(process.env.BENCH_RAILS_SEQUENTIAL ?? 60)
const UNPAID_S = Number(process.env.BENCH_RAILS_UNPAID_S ?? 5)
const WALLETS = Number(process.env.BENCH_RAILS_WALLETS ?? 500)
const CALLS_PER_WALLET = Number(process.env.BENCH_RAILS_CALLS_PER_WALLET ?? 3)
const FUNDED = 100_000n

interface Service {
  url: string
  rpcUrl: string
  payTo: `0x${string}`
  close(): Promise<void>
}

async function startService(extraEnv: Record<string, string>): Promise<Service> {
  const env = {
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
  const world = await startDevnetWorld({
    config,
    logger: createLogger('silent'),
    clock: Date.now,
    pushIntervalMs: 0,
  })
  const services = await createServices(config, createLogger('silent'), createReadiness())
  const { app, createServer } = createHttpService({ deps: services.deps })
  const server = serve({ fetch: app.fetch, createServer, port: 0, hostname: '127.0.0.1' })
  await new Promise((r) => server.once('listening', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    rpcUrl: world.rpcUrl,
    payTo: config.payTo,
    async close() {
      server.close()
      await services.close()
      await world.stop()
    },
  }
}

/** `count` new wallets holding FUNDED USDC each, funded concurrently from one demo account. */
async function fundWallets(rpcUrl: string, count: number): Promise<Hex[]> {
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: 60_000 }) })
  const funder = createRelayerSender({
    account: privateKeyToAccount((demoAccounts[0] as { privateKey: Hex }).privateKey),
    client,
    chainId: 8453,
    fees: createFeeBook(client, { maxAgeMs: 1_000 }),
    timeoutMs: 60_000,
    pollingIntervalMs: 50,
  })
  const keys = Array.from({ length: count }, () => generatePrivateKey())
  await Promise.all(
    keys.map(async (key) => {
      const data = encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [privateKeyToAccount(key).address, FUNDED],
      })
      const { receipt } = await funder.send({ to: USDC, data, gas: 80_000n })
      if (receipt?.status !== 'success') throw new Error('funding failed')
    }),
  )
  return keys
}

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
  gateMs: number | undefined
  transaction: string | undefined
}

async function paidCall(url: string, header: string): Promise<PaidAnswer> {
  const started = performance.now()
  const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': header } })
  await res.arrayBuffer()
  const ms = performance.now() - started
  if (res.status !== 200) throw new Error(`paid call answered ${res.status}`)
  const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') as string)
  if (!receipt.success) throw new Error(`paid call not settled: ${receipt.errorReason}`)
  const gate = /(?:^|,\s*)gate;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1]
  return { ms, gateMs: gate === undefined ? undefined : Number(gate), transaction: receipt.transaction }
}

async function unpaidRps(url: string): Promise<number> {
  const result = await autocannon({ url, connections: 16, duration: UNPAID_S })
  return Math.round(result.requests.average)
}

async function phaseA() {
  const ours = await startService({})
  const reference = await startReferenceStack({
    rpcUrl: ours.rpcUrl,
    relayerKey: (demoAccounts[1] as { privateKey: Hex }).privateKey,
    payTo: ours.payTo,
  })
  const bare = await startBareHono()
  try {
    const ourUrl = `${ours.url}/v1/prices?symbols=BTC`
    const refUrl = `${reference.url}/v1/prices`
    const keys = await fundWallets(ours.rpcUrl, 2 * (SEQUENTIAL + 10))
    const [ourChallenge, refChallenge] = await Promise.all([challengeOf(ourUrl), challengeOf(refUrl)])
    const ourHeaders = await Promise.all(keys.slice(0, SEQUENTIAL + 10).map((k) => sign(k, ourChallenge)))
    const refHeaders = await Promise.all(keys.slice(SEQUENTIAL + 10).map((k) => sign(k, refChallenge)))
    const ourCalls: PaidAnswer[] = []
    const refCalls: PaidAnswer[] = []
    for (let i = 0; i < SEQUENTIAL + 10; i++) {
      const [a, b] = [
        await paidCall(ourUrl, ourHeaders[i] as string),
        await paidCall(refUrl, refHeaders[i] as string),
      ]
      // The first ten warm both up (JIT, pools, learned gas).
      if (i >= 10) {
        ourCalls.push(a)
        refCalls.push(b)
      }
    }
    const rps = {
      bareHono: await unpaidRps(`${bare.url}/v1/prices`),
      ours: await unpaidRps(ourUrl),
      reference: await unpaidRps(refUrl),
    }
    const ourP50 = p50(ourCalls.map((c) => c.ms))
    const refP50 = p50(refCalls.map((c) => c.ms))
    return {
      paidCallMs: {
        ours: ourP50,
        reference: refP50,
        ratio: round(ourP50 / refP50),
        samples: ourCalls.length,
      },
      gateMsP50: p50(ourCalls.map((c) => c.gateMs ?? Number.NaN)),
      unpaid402PerSec: {
        ...rps,
        oursVsBare: round(rps.ours / rps.bareHono),
        oursVsReference: round(rps.ours / rps.reference),
        referenceVsBare: round(rps.reference / rps.bareHono),
      },
    }
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

async function phaseB() {
  // The production shape: PostgreSQL for the ledger, Redis for shared state (a schema of its own).
  const schema = `bench_rails_${Date.now()}`
  const db = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
  db.searchParams.set('options', `-c search_path=${schema}`)
  const admin = new pg.Client({
    connectionString: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  const ours = await startService({
    DEVNET_BLOCK_TIME: '2',
    DATABASE_URL: db.toString(),
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  })
  try {
    const url = `${ours.url}/v1/prices?symbols=BTC`
    const keys = await fundWallets(ours.rpcUrl, WALLETS)
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
      blockTimeS: 2,
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
  } finally {
    await ours.close()
    await admin.query(`DROP SCHEMA ${schema} CASCADE`)
    await admin.end()
  }
}

function p50(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return round(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN)
}
function round(v: number): number {
  return Math.round(v * 1000) / 1000
}

async function main(): Promise<void> {
  const exactAutomine = await phaseA()
  console.log(JSON.stringify({ exactAutomine }))
  const exactBlockTime2 = await phaseB()
  console.log(JSON.stringify({ exactBlockTime2 }))
  const record = { at: new Date().toISOString(), node: process.version, exactAutomine, exactBlockTime2 }
  mkdirSync('bench/results', { recursive: true })
  writeFileSync('bench/results/payment-rails.json', `${JSON.stringify(record, null, 2)}\n`)
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
