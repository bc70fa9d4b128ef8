import { type ChildProcess, spawn } from 'node:child_process'
import { afterAll, describe, expect, test } from 'vitest'

const PORT = 18_000 + Math.floor(Math.random() * 1000)
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
  test('behavior: starts, reports ready, logs JSON with a request id, and exits 0 on SIGTERM', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, PORT: String(PORT), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
    })
    const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)))
    const ready = await waitFor(`http://127.0.0.1:${PORT}/ready`, 20_000)
    expect(ready.status).toBe(200)
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
  })

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
