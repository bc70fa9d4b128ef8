import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { freePort, startAnvil } from '../../src/devnet/anvil.js'
import { withBuildLock } from '../../src/devnet/buildState.js'

const anvilModule = new URL('../../src/devnet/anvil.ts', import.meta.url).href

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (condition()) return true
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return condition()
}

describe('startAnvil', () => {
  it('answers eth_chainId 8453 and stops cleanly', async () => {
    const anvil = await startAnvil({ port: await freePort() })
    const response = await fetch(anvil.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    })
    expect(((await response.json()) as { result: string }).result).toBe('0x2105')
    expect(isAlive(anvil.pid)).toBe(true)
    await anvil.stop()
    expect(isAlive(anvil.pid)).toBe(false)
  })

  it('takes anvil down when the parent process is SIGKILLed', async () => {
    const script = join(tmpdir(), `anvil-orphan-${process.pid}.mjs`)
    writeFileSync(
      script,
      `const { startAnvil } = await import(${JSON.stringify(anvilModule)})
const a = await startAnvil({ port: ${await freePort()} })
console.log(a.pid)
setInterval(() => {}, 1000)
`,
    )
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const pid = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())))
      child.once('exit', (code) => reject(new Error(`child exited early with ${code}`)))
    })
    expect(isAlive(pid)).toBe(true)
    child.kill('SIGKILL')
    expect(await waitUntil(() => !isAlive(pid), 5000)).toBe(true)
  })

  it('fails fast, naming the port, when another process holds it (even another anvil that answers)', async () => {
    const squatter = await startAnvil({ port: await freePort() })
    try {
      await expect(startAnvil({ port: squatter.port })).rejects.toThrow(
        new RegExp(`port ${squatter.port} is taken|not from anvil pid`),
      )
    } finally {
      await squatter.stop()
    }
  })
})

describe('the devnet state build lock', () => {
  it('takes over a lock whose owner is dead at once, and waits (saying so) for a live owner', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'devnet-lock-'))
    const lock = join(cacheDir, 'build.lock')
    try {
      mkdirSync(lock)
      // A pid that cannot be running: the lock of a build killed half-way.
      writeFileSync(join(lock, 'owner'), '2147483646')
      const progress: string[] = []
      expect(
        await withBuildLock(
          cacheDir,
          async () => 'built',
          (m) => progress.push(m),
        ),
      ).toBe('built')
      expect(progress).toEqual([])
      expect(existsSync(lock)).toBe(false)

      // A live owner (this process, standing in for another builder) releases the lock later.
      mkdirSync(lock)
      writeFileSync(join(lock, 'owner'), String(process.pid))
      let released = false
      const waiting = withBuildLock(
        cacheDir,
        async () => released,
        (m) => progress.push(m),
      )
      await new Promise((r) => setTimeout(r, 300))
      released = true
      rmSync(lock, { recursive: true, force: true })
      expect(await waiting).toBe(true)
      expect(progress[0]).toMatch(/^waiting for pid \d+ to finish building the devnet state/)
    } finally {
      rmSync(cacheDir, { recursive: true, force: true })
    }
  })
})
