import { mkdirSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import autocannon from 'autocannon'
import { createApp } from '../src/app.js'
import { loadConfig, UPSTREAM_PORT_COUNT } from '../src/config.js'
import { freePort, freePortRange } from '../src/devnet/anvil.js'
import { startStack } from '../src/stack.js'

/**
 * `npm run bench`: throughput and latency of the HTTP layer, measured with autocannon over loopback
 * against the real app. Results go to bench/results/<name>.json and are summarised on stdout.
 */
interface Scenario {
  name: string
  method: 'GET' | 'POST'
  path: string
  body?: string
}

const SCENARIOS: Scenario[] = [
  { name: 'catalog', method: 'GET', path: '/v1' },
  { name: 'openapi', method: 'GET', path: '/v1/openapi.json' },
  // Unpaid probes of priced paths: the 402 challenge (built and HMAC-quoted per request).
  { name: 'unpaid-get-402', method: 'GET', path: '/v1/candles?product=BTC-USD&days=999' },
  {
    name: 'unpaid-post-402',
    method: 'POST',
    path: '/v1/tx/swap',
    body: JSON.stringify({ fromToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', fromAmount: 'x' }),
  },
  { name: 'rejected-free-400', method: 'GET', path: '/v1/referrals/0x12' },
]

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5)

async function main(): Promise<void> {
  const config = loadConfig({
    DEVNET_BLOCK_TIME: '0',
    // Our code is measured here, not the upstreams' documented limits (test/upstreams/ holds those).
    DEVNET_UPSTREAM_LIMITS: 'off',
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory://',
    RATE_LIMIT_UNPAID: '100000000',
    // The catalog reads live prices: run the devnet world's simulators on ports of their own.
    DEVNET_RPC_PORT: String(await freePort()),
    DEVNET_UPSTREAM_PORT: String(await freePortRange(UPSTREAM_PORT_COUNT)),
  })
  const stack = await startStack({ config, world: { clock: Date.now, pushIntervalMs: 0 } })
  const app = createApp({ deps: stack.services.deps })
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise((r) => server.once('listening', r))
  const { port } = server.address() as AddressInfo
  mkdirSync('bench/results', { recursive: true })
  const summary: Record<string, unknown>[] = []
  for (const s of SCENARIOS) {
    const result = await autocannon({
      url: `http://127.0.0.1:${port}${s.path}`,
      method: s.method,
      ...(s.body ? { body: s.body, headers: { 'content-type': 'application/json' } } : {}),
      connections: 16,
      duration: DURATION_S,
    })
    const row = {
      scenario: s.name,
      requestsPerSec: Math.round(result.requests.average),
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
      non2xx: result.non2xx,
      errors: result.errors,
    }
    summary.push(row)
    console.log(JSON.stringify(row))
  }
  const record = {
    at: new Date().toISOString(),
    node: process.version,
    durationS: DURATION_S,
    connections: 16,
    summary,
  }
  writeFileSync('bench/results/http.json', `${JSON.stringify(record, null, 2)}\n`)
  server.close()
  await stack.stop()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
