import { type ChildProcess, spawn } from 'node:child_process'

export interface ChildService {
  child: ChildProcess
  url: string
  /** Resolves with the rows still pending after the child's first reconcile round at start. */
  reconciled: Promise<number>
  /** Everything the child wrote to stdout and stderr so far. */
  output(): string
  /** `kill -9`: the process gets no chance to answer, record or flush anything. */
  kill9(): Promise<void>
}

/**
 * Starts test/helpers/serviceChild.ts in a process of its own with `env` (a devnet world's settings and
 * a ledger's DATABASE_URL), and resolves once it listens. Unlike spawnService it starts no world: the
 * test's world keeps running when the service is killed.
 */
export async function startChildService(env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<ChildService> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/serviceChild.ts'], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let out = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let onListening: (port: number) => void = () => {}
  let onReconciled: (stillPending: number) => void = () => {}
  const listening = new Promise<number>((r) => {
    onListening = r
  })
  const reconciled = new Promise<number>((r) => {
    onReconciled = r
  })
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString()
    for (const line of out.split('\n')) {
      const entry = parseLine(line)
      if (entry?.msg === 'listening' && typeof entry.port === 'number') onListening(entry.port)
      if (entry?.msg === 'reconciled' && typeof entry.stillPending === 'number')
        onReconciled(entry.stillPending)
    }
  })
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString()
  })
  let timer: NodeJS.Timeout | undefined
  const port = await Promise.race([
    listening,
    exited.then(() => {
      throw new Error(`the service child exited before listening:\n${out}`)
    }),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the service child did not listen:\n${out}`)), timeoutMs)
    }),
  ]).finally(() => clearTimeout(timer))
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    reconciled,
    output: () => out,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}

function parseLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined
  try {
    return JSON.parse(line) as Record<string, unknown>
  } catch {
    return undefined
  }
}
