import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { x402Client } from '@x402/fetch'
import { privateKeyToAccount } from 'viem/accounts'
import { createApp } from '../src/app.js'
import { loadConfig, UPSTREAM_PORT_COUNT } from '../src/config.js'
import { freePort, freePortRange } from '../src/devnet/anvil.js'
import { demoAccounts } from '../src/devnet/devnetAccounts.js'
import { startStack } from '../src/stack.js'

/**
 * `npm run bench` (payments): paid calls to GET /v1/prices on the devnet, through the whole gate with
 * the built-in facilitator and the default embedded ledger (PGlite on disk).
 *
 * - Gate latency: the gate's own server-side time per paid call, read from its Server-Timing header:
 *   local verification (decode, signature recovery, amount/quote, validity), the replay claim, admission
 *   (the paid rate limit and the funds reservation, with one balanceOf per wallet per 2 s) and the
 *   ledger writes; the handler and the settlement's chain round trips (gas estimation,
 *   broadcast, inclusion) are excluded. Sequential calls, so nothing queues.
 * - Paid calls per second: end to end (402 challenge already fetched; sign + verify + handler + settle
 *   with inclusion on the automining devnet), 16 concurrent callers over 7 wallets.
 */
const SEQUENTIAL = Number(process.env.BENCH_PAID_SEQUENTIAL ?? 300)
const CONCURRENT_TOTAL = Number(process.env.BENCH_PAID_TOTAL ?? 600)
const CONCURRENCY = 16

type Timing = Record<'gate' | 'verify' | 'claim' | 'admit' | 'ledger' | 'handler' | 'settle', number>

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agentdesk-bench-'))
  const rpcPort = await freePort()
  const env = {
    DEVNET_BLOCK_TIME: '0',
    // Our code is measured here, not the upstreams' documented limits (test/upstreams/ holds those).
    DEVNET_UPSTREAM_LIMITS: 'off',
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DEVNET_RPC_PORT: String(rpcPort),
    DEVNET_UPSTREAM_PORT: String(await freePortRange(UPSTREAM_PORT_COUNT)),
    RATE_LIMIT_UNPAID: '100000000',
    RATE_LIMIT_PAID: '100000000',
    // Surge would change the price mid-run; the bench measures the gate at the posted price.
    SURGE_CAPACITY_RPS: '1000000',
  }
  const config = loadConfig(env)
  const stack = await startStack({ config, world: { clock: Date.now, pushIntervalMs: 0 } })
  const { services } = stack
  const app = createApp({ deps: services.deps })
  const port = await freePort()
  const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' })
  await new Promise((r) => server.once('listening', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/prices?symbols=BTC,ETH`

  const challengeRes = await fetch(url)
  const challenge = decodePaymentRequiredHeader(challengeRes.headers.get('payment-required') as string)
  await challengeRes.body?.cancel()
  const clients = demoAccounts
    .slice(2, 9)
    .map((a) =>
      new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(a.privateKey))),
    )
  // Signing is the client's work: done before the clock starts.
  const sign = async (n: number) => {
    const headers: string[] = []
    for (let i = 0; i < n; i++) {
      const client = clients[i % clients.length] as x402Client
      headers.push(encodePaymentSignatureHeader(await client.createPaymentPayload(challenge)))
    }
    return headers
  }

  const paid = async (header: string) => {
    const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': header } })
    await res.body?.cancel()
    if (res.status !== 200) throw new Error(`paid call answered ${res.status}`)
    const timing = Object.fromEntries(
      (res.headers.get('server-timing') ?? '').split(',').map((part) => {
        const [name, dur] = part.trim().split(';dur=')
        return [name, Number(dur)]
      }),
    ) as Timing
    return timing
  }

  // Warm-up: first calls pay for JIT, caches and connection pools.
  for (const h of await sign(20)) await paid(h)

  const sequential = await sign(SEQUENTIAL)
  const timings: Timing[] = []
  for (const h of sequential) timings.push(await paid(h))
  const gate = timings.map((t) => t.gate).sort((a, b) => a - b)
  const settle = timings.map((t) => t.settle).sort((a, b) => a - b)
  const part = (k: 'verify' | 'claim' | 'admit' | 'ledger' | 'handler') => {
    const v = timings.map((t) => t[k]).sort((a, b) => a - b)
    return { p50: round(pct(v, 0.5)), p99: round(pct(v, 0.99)) }
  }

  const concurrent = await sign(CONCURRENT_TOTAL)
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < concurrent.length) await paid(concurrent[next++] as string)
    }),
  )
  const elapsedS = (performance.now() - started) / 1000

  const record = {
    at: new Date().toISOString(),
    node: process.version,
    endpoint: 'GET /v1/prices?symbols=BTC,ETH',
    ledger: 'PGlite (embedded, on disk)',
    sharedState: 'memory',
    facilitator: 'built-in (relayer key, automining anvil)',
    gateMs: {
      samples: gate.length,
      p50: round(pct(gate, 0.5)),
      p99: round(pct(gate, 0.99)),
      max: round(gate.at(-1) ?? 0),
    },
    gatePartsMs: {
      verify: part('verify'),
      claim: part('claim'),
      admit: part('admit'),
      ledger: part('ledger'),
    },
    handlerMs: part('handler'),
    settleMs: { p50: round(pct(settle, 0.5)), p99: round(pct(settle, 0.99)) },
    paidCallsPerSec: {
      calls: concurrent.length,
      concurrency: CONCURRENCY,
      value: Math.round(concurrent.length / elapsedS),
    },
  }
  console.log(JSON.stringify(record))
  mkdirSync('bench/results', { recursive: true })
  writeFileSync('bench/results/payments.json', `${JSON.stringify(record, null, 2)}\n`)

  server.close()
  await stack.stop()
  rmSync(dataDir, { recursive: true, force: true })
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0
}
function round(v: number): number {
  return Math.round(v * 1000) / 1000
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
