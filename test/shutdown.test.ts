import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http'
import { afterAll, describe, expect, test } from 'vitest'
import { DEVNET_PYTH_API_KEY } from '../src/config.js'
import { freePort } from '../src/devnet/anvil.js'
import { demoAccounts, devnetRelayer } from '../src/devnet/devnetAccounts.js'
import { createFundsGuard } from '../src/payments/exact/fundsGuard.js'
import { reconcilePending } from '../src/payments/exact/reconcilePending.js'
import { createDatabase } from '../src/store/database.js'
import { createLedger } from '../src/store/ledger.js'
import { migrate } from '../src/store/migrations.js'
import { createMemoryState } from '../src/store/sharedState.js'
import { payer, useWorld } from './helpers/serviceWorld.js'
import { spawnService } from './helpers/spawnService.js'

/**
 * SIGTERM while paid calls are in flight: the process must exit within SHUTDOWN_GRACE_MS, and every
 * ledger row must agree with the chain. The service runs as its own process on the production profile,
 * pointed at a devnet world that this test owns, so the chain outlives the service and can be checked.
 */
const sw = useWorld()
let child: ChildProcess | undefined
const DATA_DIR = mkdtempSync(join(tmpdir(), 'agentdesk-shutdown-'))
const GRACE_MS = 8_000
const payTo = demoAccounts[9]?.address as `0x${string}`

afterAll(async () => {
  child?.kill('SIGKILL')
  rmSync(DATA_DIR, { recursive: true, force: true })
})

describe('shutdown', () => {
  test('behavior: SIGTERM during in-flight paid calls: the process exits within the grace period and every row matches the chain', async () => {
    const upstream = (offset: number) => `http://127.0.0.1:${Number(sw.env.DEVNET_UPSTREAM_PORT) + offset}`
    const service = await spawnService(async () => ({
      PROFILE: 'base',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      RPC_URL: sw.world.rpcUrl,
      COINBASE_URL: upstream(0),
      PYTH_HERMES_URL: upstream(1),
      // The devnet's Hermes simulator demands its key, as Hermes does.
      PYTH_API_KEY: DEVNET_PYTH_API_KEY,
      PYTH_BENCHMARKS_URL: upstream(2),
      GTRADE_BACKEND_URL: upstream(3),
      GTRADE_HISTORY_URL: upstream(3),
      EXPLORER_URL: upstream(4),
      ZEROX_API_URL: upstream(5),
      MORPHO_API_URL: upstream(6),
      PAY_TO: payTo,
      RELAYER_PRIVATE_KEY: devnetRelayer.privateKey,
      CHAIN_POLLING_MS: '25',
      DATA_DIR,
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
    }))
    child = service.child
    const port = service.port
    const exited = service.exited
    const url = `http://127.0.0.1:${port}/v1/prices?symbols=BTC`
    // Serving needs the chain and the listener. The preflight keeps this process out of ready, rightly:
    // the base profile's lending catalog (Base's MetaMorpho vaults, gUSDC) is not on the devnet world.
    for (let i = 0; ; i++) {
      const ready = await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined)
      const state =
        ready === undefined ? undefined : ((await ready.json()) as { components: Record<string, boolean> })
      if (state?.components.chain === true && state.components.http === true) break
      if (i > 600) throw new Error('service not ready within 60 s')
      await new Promise((r) => setTimeout(r, 100))
    }

    // Twenty authorizations from two wallets, signed before the clock starts.
    const challenge = decodePaymentRequiredHeader(
      (await fetch(url)).headers.get('payment-required') as string,
    )
    const wallets = [payer(2), payer(3)]
    const headers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        encodePaymentSignatureHeader(
          await (wallets[i % 2] as ReturnType<typeof payer>).client.createPaymentPayload(challenge),
        ),
      ),
    )
    const before = await sw.usdcBalance(payTo)
    const calls = headers.map((h) =>
      fetch(url, { headers: { 'PAYMENT-SIGNATURE': h } }).then(
        async (r) => {
          await r.body?.cancel()
          return r.status
        },
        () => 'refused' as const,
      ),
    )
    // SIGTERM as soon as the first call is answered: the others are still in flight.
    await Promise.race(calls)
    child.kill('SIGTERM')
    const statuses = await Promise.all(calls)
    const code = await Promise.race([
      exited,
      new Promise<'hung'>((r) => setTimeout(() => r('hung'), GRACE_MS + 5_000)),
    ])
    // 0 is the graceful path; the grace timer would have exited 1, and a hang never answers.
    expect(code).toBe(0)
    const served = statuses.filter((s) => s === 200).length
    expect(served).toBeGreaterThan(0)
    // Every answer is a 200 or a refused connection (no 5xx, no half-charged call).
    for (const s of statuses) expect([200, 'refused']).toContain(s)

    // The books, read after the process is gone, reconciled against the chain that outlived it.
    const db = await createDatabase({ dataDir: DATA_DIR })
    try {
      await migrate(db)
      const ledger = createLedger(db)
      const state = createMemoryState()
      await reconcilePending(
        {
          ledger,
          chain: sw.chain,
          funds: createFundsGuard(state.funds, async () => 0n, Date.now),
          defaultPayTo: payTo,
        },
        Math.floor(Date.now() / 1000),
      )
      const rows = (await Promise.all(wallets.map((w) => ledger.byPayer(w.account.address)))).flat()
      expect(rows.filter((r) => r.status === 'pending')).toEqual([])
      const settled = rows.filter((r) => r.status === 'settled')
      expect(settled).toHaveLength(served)
      expect(settled.every((r) => r.served)).toBe(true)
      expect(await sw.usdcBalance(payTo)).toBe(before + settled.reduce((sum, r) => sum + r.amount, 0n))
    } finally {
      await db.close()
    }
  }, 120_000)
})
