import { type ChildProcess, spawn } from 'node:child_process'

export interface SpawnedService {
  child: ChildProcess
  /** The HTTP port the process reported in its `listening` line. */
  port: number
  /** The environment it was started with (ports included). */
  env: Record<string, string>
  /** Everything it has written to stdout so far (JSON lines). */
  output(): string
  exited: Promise<number | null>
}

/**
 * Starts `npm start`'s entry (`scripts/start.mjs`) and resolves once the process itself logs
 * `listening`, so a test never mistakes another process on the same port for its own. Ports are chosen
 * by `envFor` before the child binds them; when a neighbour (a second test run on the machine) takes
 * one in between, the child exits before listening and is started again on fresh ports (three tries).
 * `LOG_LEVEL` is forced to `info`: the `listening` line is how the port is learnt.
 */
export async function spawnService(
  envFor: () => Promise<Record<string, string>>,
  timeoutMs = 90_000,
  /** In a process group of its own, as a supervisor starts it (signal the group with `-pid`). */
  detached = false,
): Promise<SpawnedService> {
  let lastFailure = ''
  for (let attempt = 1; attempt <= 3; attempt++) {
    const env = { ...(await envFor()), LOG_LEVEL: 'info' }
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached,
    })
    let out = ''
    let err = ''
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const listening = new Promise<number>((resolve) => {
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString()
        for (const line of out.split('\n')) {
          const entry = parseLine(line)
          if (entry?.msg === 'listening' && typeof entry.port === 'number') resolve(entry.port)
        }
      })
      child.stderr?.on('data', (d: Buffer) => {
        err += d.toString()
      })
    })
    let timer: NodeJS.Timeout | undefined
    const outcome = await Promise.race([
      listening.then((port) => ({ port })),
      exited.then((code) => ({ code })),
      new Promise<{ timeout: true }>((resolve) => {
        timer = setTimeout(() => resolve({ timeout: true }), timeoutMs)
      }),
    ])
    clearTimeout(timer)
    if ('port' in outcome) {
      return { child, port: outcome.port, env, output: () => out, exited }
    }
    if ('timeout' in outcome) {
      child.kill('SIGKILL')
      throw new Error(`service did not listen within ${timeoutMs} ms\n${err}`)
    }
    lastFailure = `exit ${outcome.code}: ${err.trim().split('\n').slice(0, 3).join(' | ')}`
  }
  throw new Error(`service failed to start three times; last: ${lastFailure}`)
}

function parseLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined
  try {
    return JSON.parse(line) as Record<string, unknown>
  } catch {
    return undefined // a line still being written
  }
}
