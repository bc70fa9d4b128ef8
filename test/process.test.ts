import { type ChildProcess, spawn } from 'node:child_process'
import { afterAll, describe, expect, test } from 'vitest'

const PORT = 18_000 + Math.floor(Math.random() * 1000)
// The devnet profile starts anvil and five upstream simulators: give them ports of their own.
const WORLD = { DEVNET_RPC_PORT: String(PORT + 1000), DEVNET_UPSTREAM_PORT: String(PORT + 2000) }
let child: ChildProcess | undefined

afterAll(() => {
  child?.kill('SIGKILL')
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
  test('behavior: starts the devnet world, reports ready, logs JSON with a request id, exits 0 on SIGTERM', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, ...WORLD, PORT: String(PORT), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
    })
    const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)))
    // A cold state cache is built on the first start (~10 s on 2 cores); later starts load it.
    let ready = await waitFor(`http://127.0.0.1:${PORT}/ready`, 60_000)
    while (ready.status !== 200) {
      await new Promise((r) => setTimeout(r, 200))
      ready = await fetch(`http://127.0.0.1:${PORT}/ready`)
    }
    expect(await ready.json()).toEqual({ ready: true, components: { http: true, chain: true } })
    const ticker = await fetch(`http://127.0.0.1:${WORLD.DEVNET_UPSTREAM_PORT}/products/ETH-USD/ticker`)
    expect(ticker.status).toBe(200)
    const res = await fetch(`http://127.0.0.1:${PORT}/health`, { headers: { 'x-request-id': 'probe-1' } })
    expect(res.headers.get('x-request-id')).toBe('probe-1')
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines.some((l) => l.msg === 'request' && l.requestId === 'probe-1' && l.status === 200)).toBe(true)
    expect(lines.some((l) => l.msg === 'stopped')).toBe(true)
    // The world went down with the service: nothing answers on its chain port any more.
    await expect(fetch(`http://127.0.0.1:${WORLD.DEVNET_RPC_PORT}`)).rejects.toThrow()
  }, 90_000)

  test('error: a bad variable stops the start with one clear message', async () => {
    const bad = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
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
