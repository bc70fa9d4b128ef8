import { loadConfig } from '../../src/config.js'
import { createHttpService } from '../../src/httpService.js'
import { createLogger } from '../../src/logger.js'
import { createReadiness } from '../../src/readiness.js'
import { createServices } from '../../src/services.js'
import { listenFirst } from './listenFirst.js'

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
  const { port, attach } = await listenFirst()
  const config = loadConfig({ ...process.env, PORT: String(port) })
  const offsetMs = Number(process.env.SERVICE_CLOCK_OFFSET_MS ?? 0)
  const services = await createServices(
    config,
    createLogger(config.logLevel),
    createReadiness(),
    () => Date.now() + offsetMs,
  )
  attach(createHttpService({ deps: services.deps }))
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
