import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Time from the command a user runs, `npm start` (npm, then scripts/start.mjs, the compiled service from
 * dist/ and the devnet world), to `/ready` answering 200. Two kinds of start, three runs each:
 * - first: a data directory that does not exist yet, as on the first `npm start` after `npm ci` (the
 *   ledger starts from the PGlite template that `npm ci`'s prepare step built);
 * - again: the same data directory, as on every later start.
 * The devnet state cache is whatever `npm ci` (or an earlier start) left: warm unless its inputs changed.
 */
const RUNS = 3

async function once(port: number, dataDir: string): Promise<number> {
  const started = performance.now()
  const child = spawn('npm', ['start'], {
    env: {
      ...process.env,
      PORT: String(port),
      DEVNET_RPC_PORT: String(port + 1),
      DEVNET_UPSTREAM_PORT: String(port + 10),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
    // Its own process group: npm, the launcher and the service are stopped together.
    detached: true,
  })
  const exited = new Promise((r) => child.once('exit', r))
  try {
    for (;;) {
      const res = await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined)
      if (res?.status === 200) return performance.now() - started
      if (performance.now() - started > 120_000) throw new Error('service not ready within 120 s')
      await new Promise((r) => setTimeout(r, 20))
    }
  } finally {
    process.kill(-(child.pid as number), 'SIGTERM')
    await exited
  }
}

async function main(): Promise<void> {
  const first: number[] = []
  const again: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'agentdesk-start-')), 'data')
    try {
      first.push(Math.round(await once(28_400 + i * 100, dataDir)))
      again.push(Math.round(await once(28_450 + i * 100, dataDir)))
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  const record = {
    at: new Date().toISOString(),
    command: 'npm start',
    firstStartMs: first,
    laterStartMs: again,
    firstStartWorstMs: Math.max(...first),
    laterStartWorstMs: Math.max(...again),
  }
  mkdirSync('bench/results', { recursive: true })
  writeFileSync('bench/results/startup.json', `${JSON.stringify(record, null, 2)}\n`)
  console.log(JSON.stringify(record))
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
