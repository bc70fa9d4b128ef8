import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { loadConfig } from '../../src/config.js'
import { fastPathServer } from '../../src/http/fastPathServer.js'
import { KEEP_ALIVE_TIMEOUT_MS } from '../../src/http/keepAlive.js'
import { createHttpService, type HttpService } from '../../src/httpService.js'
import { createLogger } from '../../src/logger.js'
import { createReadiness } from '../../src/readiness.js'
import { createServices } from '../../src/services.js'

/**
 * A service instance in a process of its own, on a devnet world the parent (a test) runs: so a test can
 * `kill -9` the service alone and start another on the same ledger (`DATABASE_URL`) while the chain
 * carries on. Started as serviceWorld's `instance()` starts one (config from the environment, the fast
 * path in front of the app, a port the system picks), and as src/main.ts does at start it reconciles the
 * settlements a previous run left pending. It reports on stdout, one JSON line each: `listening` with the
 * port, then `reconciled` with the rows still pending after its first round. `SERVICE_CLOCK_OFFSET_MS`
 * starts it that much later in the service's time (a restart minutes after the crash, without waiting them).
 */
async function main(): Promise<void> {
  let service: HttpService | undefined
  const server = serve({
    fetch: (req, ...rest) => (service as HttpService).app.fetch(req, ...rest),
    createServer: fastPathServer((req, res) => service?.fastPath(req, res) ?? Promise.resolve(false)),
    port: 0,
    hostname: '127.0.0.1',
  })
  ;(server as { keepAliveTimeout: number }).keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
  await new Promise((r) => server.once('listening', r))
  const { port } = server.address() as AddressInfo
  const config = loadConfig({ ...process.env, PORT: String(port) })
  const offsetMs = Number(process.env.SERVICE_CLOCK_OFFSET_MS ?? 0)
  const services = await createServices(
    config,
    createLogger(config.logLevel),
    createReadiness(),
    () => Date.now() + offsetMs,
  )
  service = createHttpService({ deps: services.deps })
  report({ msg: 'listening', port })
  const stillPending = await services.reconcile()
  report({ msg: 'reconciled', stillPending })
}

function report(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`)
}

// The parent going away (a test run stopped) takes this process with it: its stdin closes.
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()

main().catch((err: unknown) => {
  process.stderr.write(`fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  process.exit(1)
})
