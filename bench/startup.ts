import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'

/**
 * Time from launching the service (as `npm start` does: node + tsx + src/main.ts, devnet profile) to
 * `/ready` answering 200. The first run may build the state cache; the following runs are warm.
 */
const RUNS = 3

async function once(port: number): Promise<number> {
  const started = performance.now()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DEVNET_RPC_PORT: String(port + 1),
      DEVNET_UPSTREAM_PORT: String(port + 10),
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  })
  try {
    for (;;) {
      const res = await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined)
      if (res?.status === 200) return performance.now() - started
      if (performance.now() - started > 120_000) throw new Error('service not ready within 120 s')
      await new Promise((r) => setTimeout(r, 25))
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    await exited
  }
}

async function main(): Promise<void> {
  const runsMs: number[] = []
  for (let i = 0; i < RUNS; i++) runsMs.push(Math.round(await once(28_400 + i * 100)))
  const warm = runsMs.slice(1)
  const record = {
    at: new Date().toISOString(),
    runsMs,
    warmBestMs: Math.min(...warm),
    warmWorstMs: Math.max(...warm),
  }
  mkdirSync('bench/results', { recursive: true })
  writeFileSync('bench/results/startup.json', `${JSON.stringify(record, null, 2)}\n`)
  console.log(JSON.stringify(record))
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
