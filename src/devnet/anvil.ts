import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { createRequire } from 'node:module'

export interface StartAnvilOptions {
  port: number
  /** Interval mining; omitted = automine (one block per transaction). */
  blockTimeSeconds?: number
  /** Start from a state previously written by `--dump-state` / `dumpDevnetState` (plain JSON, not gz). */
  loadStatePath?: string
  /** The genesis block's timestamp (unix seconds) instead of the wall clock's. */
  genesisTimestamp?: number
  /** Anvil writes its state here when it exits (on `stop()`). */
  dumpStatePath?: string
  /** Milliseconds to wait for the RPC to answer before giving up. */
  readyTimeoutMs?: number
}

export interface AnvilInstance {
  url: string
  port: number
  /** PID of the anvil process itself (not the supervising shell). */
  pid: number
  /** Stop anvil gracefully (so `--dump-state` is written) and wait until it has exited. */
  stop(): Promise<void>
}

export class AnvilStartError extends Error {
  override readonly name = 'AnvilStartError'
}

export const DEVNET_CHAIN_ID = 8453

/**
 * A tiny supervisor shell. It starts anvil, prints its pid, and watches its own stdin, a pipe held by the
 * Node parent. The pipe closes whenever the parent goes away — normal exit, crash, an unhandled
 * SIGINT/SIGTERM (which skip Node's 'exit' event) or even SIGKILL — and the shell then stops anvil. This
 * is the portable stand-in for prctl(PR_SET_PDEATHSIG), which Node cannot call.
 */
const SUPERVISOR = [
  // Keep the parent's pipe as fd 3: a background list's own stdin would be /dev/null.
  'exec 3<&0',
  '"$@" >/dev/null </dev/null &',
  'child=$!',
  'echo "$child"',
  // The watcher: when the pipe closes, stop anvil (escalating if it does not exit within 5 s).
  '( while read -r _line <&3; do :; done; kill -TERM "$child" 2>/dev/null; sleep 5; kill -KILL "$child" 2>/dev/null ) &',
  'watcher=$!',
  "trap 'kill -TERM $child 2>/dev/null' TERM INT HUP",
  // The shell lives exactly as long as anvil: if anvil dies on its own (a port in use), the parent sees
  // the exit at once instead of waiting for a readiness timeout.
  'while kill -0 "$child" 2>/dev/null; do wait "$child"; done',
  'kill "$watcher" 2>/dev/null',
  'exit 0',
].join('\n')

export function anvilBinaryPath(): string {
  return createRequire(import.meta.url).resolve('@foundry-rs/anvil-linux-amd64/bin/anvil')
}

/** Spawn anvil on 127.0.0.1:`port` with chainId 8453 and resolve once it answers `eth_chainId`. */
export async function startAnvil(options: StartAnvilOptions): Promise<AnvilInstance> {
  const { port } = options
  const args = [
    '--chain-id',
    String(DEVNET_CHAIN_ID),
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--silent',
  ]
  if (options.blockTimeSeconds !== undefined) args.push('--block-time', String(options.blockTimeSeconds))
  if (options.genesisTimestamp !== undefined) args.push('--timestamp', String(options.genesisTimestamp))
  if (options.loadStatePath !== undefined) args.push('--load-state', options.loadStatePath)
  if (options.dumpStatePath !== undefined) args.push('--dump-state', options.dumpStatePath)

  const shell = spawn('/bin/sh', ['-c', SUPERVISOR, 'anvil-supervisor', anvilBinaryPath(), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    detached: false,
  })
  const pid = await readPid(shell)
  const url = `http://127.0.0.1:${port}`

  let exited = false
  const exitPromise = new Promise<void>((resolve) => {
    shell.once('exit', () => {
      exited = true
      process.removeListener('exit', killOnExit)
      resolve()
    })
  })
  // On a normal exit (including after an uncaught exception) Node runs 'exit' listeners synchronously:
  // kill anvil directly, since the supervisor may not get scheduled before we are gone.
  function killOnExit(): void {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  process.once('exit', killOnExit)

  const stop = async (): Promise<void> => {
    if (exited) return
    shell.stdin?.end()
    await exitPromise
  }

  try {
    await waitForRpc(url, options.readyTimeoutMs ?? 15_000, () => exited)
    // Whoever answered, it must be our anvil: if another process held the port, ours exits ("address
    // in use") while the other one answers, and we would silently share someone else's chain.
    await waitForOwnership(pid, port, url, options.readyTimeoutMs ?? 15_000, () => exited)
  } catch (error) {
    await stop()
    throw error
  }
  return { url, port, pid, stop }
}

function readPid(shell: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let buffer = ''
    const onData = (chunk: Buffer): void => {
      buffer += chunk.toString('utf8')
      const newline = buffer.indexOf('\n')
      if (newline === -1) return
      shell.stdout?.off('data', onData)
      const pid = Number(buffer.slice(0, newline).trim())
      if (!Number.isInteger(pid) || pid <= 0) reject(new AnvilStartError(`bad anvil pid line: ${buffer}`))
      else resolve(pid)
    }
    shell.stdout?.on('data', onData)
    shell.once('error', (error) =>
      reject(new AnvilStartError('could not spawn the anvil supervisor', { cause: error })),
    )
  })
}

async function waitForRpc(url: string, timeoutMs: number, hasExited: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })
  for (;;) {
    if (hasExited()) throw new PortTakenError(`anvil exited before answering on ${url} (port in use?)`)
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      if (response.ok) {
        const json = (await response.json()) as { result?: string }
        if (json.result !== undefined && Number(json.result) === DEVNET_CHAIN_ID) return
        throw new AnvilStartError(`unexpected eth_chainId answer from ${url}: ${JSON.stringify(json)}`)
      }
    } catch (error) {
      if (error instanceof AnvilStartError) throw error
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new AnvilStartError(`anvil did not answer on ${url} within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 15))
  }
}

async function waitForOwnership(
  pid: number,
  port: number,
  url: string,
  timeoutMs: number,
  hasExited: () => boolean,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (hasExited()) throw new PortTakenError(`port ${port} is taken by another process (${url})`)
    const owned = listensOn(pid, port)
    if (owned !== false) return
    if (Date.now() > deadline) throw new PortTakenError(`${url} answers, but not from anvil pid ${pid}`)
    await new Promise((resolve) => setTimeout(resolve, 15))
  }
}

/**
 * Whether process `pid` holds the listening socket of TCP `port`, from /proc (Linux, where the anvil
 * binary runs); undefined where /proc cannot tell.
 */
export function listensOn(pid: number, port: number): boolean | undefined {
  if (!existsSync('/proc/net/tcp')) return undefined
  try {
    const portHex = port.toString(16).toUpperCase().padStart(4, '0')
    const inodes = new Set<string>()
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      if (!existsSync(table)) continue
      for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const cols = line.trim().split(/\s+/)
        // local_address is ip:port in hex; state 0A is LISTEN; the inode is column 10.
        if (cols[1]?.endsWith(`:${portHex}`) && cols[3] === '0A' && cols[9] !== undefined) inodes.add(cols[9])
      }
    }
    const fds = readdirSync(`/proc/${pid}/fd`)
    return fds.some((fd) => {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`)
        return inodes.has(target.slice('socket:['.length, -1)) && target.startsWith('socket:[')
      } catch {
        return false
      }
    })
  } catch {
    // /proc works here, so an unreadable fd table means the process is gone: it owns nothing.
    return false
  }
}

/** The port was taken between choosing it and binding it (by another test worker, another run). */
export class PortTakenError extends AnvilStartError {}

/**
 * Runs `start` on a free port, and on another one if that port was taken in between (two test runs on
 * one machine pick from the same ranges): at most five tries, then the last error.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort())
    } catch (err) {
      if (!(err instanceof PortTakenError) || attempt >= 5) throw err
    }
  }
}

/**
 * The first of `count` consecutive free loopback ports, below the kernel's ephemeral range (so an
 * outgoing connection cannot take one between this check and the listen).
 */
export async function freePortRange(count: number, fromPort?: number, toPort?: number): Promise<number> {
  const [from, to] = fromPort !== undefined ? [fromPort, toPort ?? 32_000] : workerSlice()
  const { createServer } = await import('node:net')
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer()
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
    })
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = from + Math.floor(Math.random() * (to - from - count))
    let ok = true
    for (let p = first; p < first + count && ok; p++) ok = await free(p)
    if (ok) return first
  }
  throw new AnvilStartError(`no ${count} consecutive free ports in ${from}..${to}`)
}

/**
 * The ports 20000..32000 are shared out between test workers (VITEST_POOL_ID 1, 2, … take slices of
 * their own, offset per run), so two workers of a run never pick the same port between a check and a
 * listen; other processes pick from the whole range. A collision that still happens is retried
 * (`onFreePort`) or fails at once with its reason.
 */
function workerSlice(): [number, number] {
  const worker = Number(process.env.VITEST_POOL_ID ?? 0)
  if (!Number.isInteger(worker) || worker <= 0) return [20_000, 32_000]
  // The run (the worker's parent, vitest's main process) picks the offset, so two test runs on one
  // machine usually land in different slices too.
  const slices = 8
  const width = 12_000 / slices
  const from = 20_000 + ((worker - 1 + process.ppid) % slices) * width
  return [from, from + width]
}

/**
 * A currently free TCP port on 127.0.0.1, below the ephemeral range and in this test worker's slice (for
 * tests: one anvil or service per test file).
 */
export function freePort(): Promise<number> {
  return freePortRange(1)
}
