import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodePaymentResponseHeader } from '@x402/core/http'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { createPublicClient, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, describe, expect, test } from 'vitest'
import { UPSTREAM_PORT_COUNT } from '../src/config.js'
import { freePortRange } from '../src/devnet/anvil.js'
import { demoAccounts } from '../src/devnet/devnetAccounts.js'
import { spawnService } from './helpers/spawnService.js'

// The ledger's PGlite directory, kept across the restart below.
const DATA_DIR = mkdtempSync(join(tmpdir(), 'agentdesk-data-'))
/** Fresh ports for the service, anvil and the five upstream simulators, on every (re)start. */
async function ports(): Promise<Record<string, string>> {
  const first = await freePortRange(2 + UPSTREAM_PORT_COUNT)
  return {
    PORT: String(first),
    DEVNET_RPC_PORT: String(first + 1),
    DEVNET_UPSTREAM_PORT: String(first + 2),
    DATA_DIR,
  }
}
let child: ChildProcess | undefined
const REFERRER = privateKeyToAccount(generatePrivateKey()).address

afterAll(() => {
  child?.kill('SIGKILL')
  rmSync(DATA_DIR, { recursive: true, force: true })
})

async function waitFor(url: string, timeoutMs: number): Promise<Response> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await fetch(url)
    } catch (err) {
      if (Date.now() > deadline) throw err
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

describe('service process', () => {
  test('behavior: starts the devnet world (a block every 200 ms), reports ready, logs JSON with a request id, exits 0 on SIGTERM', async () => {
    const first = await spawnService(ports)
    child = first.child
    const PORT = first.port
    const WORLD = first.env
    // A cold state cache is built on the first start (~10 s on 2 cores); later starts load it.
    let ready = await waitFor(`http://127.0.0.1:${PORT}/ready`, 60_000)
    while (ready.status !== 200) {
      await new Promise((r) => setTimeout(r, 200))
      ready = await fetch(`http://127.0.0.1:${PORT}/ready`)
    }
    expect(await ready.json()).toEqual({
      ready: true,
      components: { http: true, chain: true, preflight: true, 'upstream keys': true },
      problems: {},
      openCircuits: {},
    })
    const ticker = await fetch(`http://127.0.0.1:${WORLD.DEVNET_UPSTREAM_PORT}/products/ETH-USD/ticker`)
    expect(ticker.status).toBe(200)
    const res = await fetch(`http://127.0.0.1:${PORT}/health`, { headers: { 'x-request-id': 'probe-1' } })
    expect(res.headers.get('x-request-id')).toBe('probe-1')
    // A paid call through the official client, attributed to a referrer: its row must outlive the process.
    const account = privateKeyToAccount(demoAccounts[2]?.privateKey as `0x${string}`)
    const payFetch = wrapFetchWithPayment(
      fetch,
      new x402Client().register('eip155:8453', new ExactEvmScheme(account)),
    )
    const paid = await payFetch(`http://127.0.0.1:${PORT}/v1/prices?symbols=BTC&ref=${REFERRER}`)
    expect(paid.status).toBe(200)
    // The world mines as Base does since Denim: a block every 200 ms (not one per transaction), and the call's
    // receipt names a transaction included in one of them.
    const chain = createPublicClient({ transport: http(`http://127.0.0.1:${WORLD.DEVNET_RPC_PORT}`) })
    const receipt = decodePaymentResponseHeader(paid.headers.get('payment-response') ?? '')
    const included = await chain.getTransactionReceipt({ hash: receipt.transaction as `0x${string}` })
    expect(included.status).toBe('success')
    const [fromBlock, fromMs] = [await chain.getBlockNumber({ cacheTime: 0 }), Date.now()]
    await new Promise((r) => setTimeout(r, 2_000))
    const perSecond =
      Number((await chain.getBlockNumber({ cacheTime: 0 })) - fromBlock) / ((Date.now() - fromMs) / 1000)
    // Five a second; a loaded machine mines somewhat fewer, automine none at all while nothing is sent.
    expect(perSecond).toBeGreaterThan(3)
    expect(perSecond).toBeLessThan(6.5)
    child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    const lines = first
      .output()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines.some((l) => l.msg === 'request' && l.requestId === 'probe-1' && l.status === 200)).toBe(true)
    expect(lines.some((l) => l.msg === 'stopped')).toBe(true)
    // The world went down with the service: nothing answers on its chain port any more.
    await expect(fetch(`http://127.0.0.1:${WORLD.DEVNET_RPC_PORT}`)).rejects.toThrow()

    // Restart on the same data directory: the settlement is still on the books.
    const second = await spawnService(ports)
    child = second.child
    const standing = await waitFor(`http://127.0.0.1:${second.port}/v1/referrals/${REFERRER}`, 60_000)
    expect(await standing.json()).toMatchObject({ paidCalls: 1, paidVolumeUsd: 0.001 })
    child.kill('SIGTERM')
    await second.exited
  }, 120_000)

  test('error: a bad variable stops the start with one clear message', async () => {
    const bad = spawn(process.execPath, ['scripts/start.mjs'], {
      env: { ...process.env, PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let err = ''
    bad.stderr?.on('data', (d: Buffer) => {
      err += d.toString()
    })
    const code = await new Promise<number | null>((resolve) => bad.on('exit', resolve))
    expect(code).toBe(2)
    expect(err).toMatch(/PORT: /)
  })
})
