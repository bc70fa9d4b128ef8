import { serve } from '@hono/node-server'
import { waitForChain } from './chain/createChainClient.js'
import { ConfigError, loadConfig } from './config.js'
import { startExitWatchdog } from './exitWatchdog.js'
import { KEEP_ALIVE_TIMEOUT_MS } from './http/keepAlive.js'
import { createLogger } from './logger.js'
import { createReadiness } from './readiness.js'
import { startStack } from './stack.js'

/**
 * Process entry: config → devnet world (default profile only) → app → listen; graceful shutdown on
 * SIGTERM/SIGINT. The service reaches the chain and upstreams only through config.rpcUrl and
 * config.upstreams; the world merely makes those URLs answer locally.
 */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(2)
    }
    throw err
  }
  const logger = createLogger(config.logLevel)
  const readiness = createReadiness()
  readiness.register('http')
  readiness.register('chain')
  const started = performance.now()
  // The world (anvil, simulators) on the default profile, unless DEVNET_WORLD=external runs it in a process
  // of its own.
  const embedded = config.profile === 'devnet' && config.devnet.world === 'embedded'
  const stack = await startStack({
    config,
    logger,
    readiness,
    ...(embedded ? { world: { clock: Date.now } } : {}),
  })
  const { services } = stack
  const { app, createServer } = stack.http
  waitForChain(services.deps.chain, 30_000).then(
    () => {
      readiness.markReady('chain')
      // The address book checked against the chain at once, so a mismatch is in the log at start.
      void readiness.refresh()
      // Settlements left pending by a previous run are settled from the chain first thing.
      void services.reconcile()
      logger.info({
        msg: 'chain ready',
        rpc: config.rpcUrl,
        startupMs: Math.round(performance.now() - started),
      })
    },
    (err: unknown) => logger.error({ msg: 'chain unreachable', rpc: config.rpcUrl, err }),
  )

  const server = serve(
    { fetch: app.fetch, createServer, port: config.port, hostname: config.host },
    (info) => {
      readiness.markReady('http')
      logger.info({ msg: 'listening', profile: config.profile, url: config.publicUrl, port: info.port })
    },
  )
  // Longer than any client's or load balancer's idle timeout (undici 4 s, ALB 60 s): the client closes
  // an idle socket first, so it never sends on one the server is closing.
  ;(server as { keepAliveTimeout: number }).keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS

  let stopping = false
  const shutdown = (signal: string) => {
    if (stopping) return
    stopping = true
    readiness.markDown('http')
    logger.info({ msg: 'shutting down', signal })
    // Not unref'd: whatever else hangs (a request waiting on a settlement, a store that does not close, a
    // child that does not stop), the process is gone once the grace period is over. And if the main
    // thread itself is blocked so that this timer cannot fire, the watchdog's thread kills it shortly after.
    startExitWatchdog(config.shutdownGraceMs + EXIT_WATCHDOG_MARGIN_MS)
    setTimeout(() => {
      logger.warn({ msg: 'grace period over; exiting with work in flight' })
      process.exit(1)
    }, config.shutdownGraceMs)
    // close() shuts idle sockets now; those still serving a request turn idle later and would otherwise
    // sit out the long keep-alive timeout, so they are closed as soon as they are.
    setInterval(() => (server as { closeIdleConnections(): void }).closeIdleConnections(), 50).unref()
    server.close(() => {
      void stack.stop().finally(() => {
        logger.info({ msg: 'stopped' })
        process.exit(0)
      })
    })
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

/** How long past the grace period the watchdog waits for the ordinary exit. */
const EXIT_WATCHDOG_MARGIN_MS = 2_000

main().catch((err: unknown) => {
  process.stderr.write(`fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  process.exit(1)
})
