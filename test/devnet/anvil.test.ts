import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { freePort, startAnvil } from '../../src/devnet/anvil.js'

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
})
