import { loadConfig } from '../src/config.js'
import { startDevnetWorld } from '../src/devnet/startDevnetWorld.js'
import { createLogger } from '../src/logger.js'

/**
 * The devnet world alone (anvil, simulators, keeper, price pusher), on the ports the same environment gives
 * `npm start` (DEVNET_RPC_PORT, DEVNET_UPSTREAM_PORT, DEVNET_BLOCK_TIME, DEVNET_SEED). Start the service
 * beside it with DEVNET_WORLD=external: two processes, so each one's memory is measured on its own (the
 * soak, bench/soak.ts). Prints one JSON line `{"ready":…}` on stdout once the world answers; stops on
 * SIGTERM/SIGINT.
 */
async function main(): Promise<void> {
  const config = loadConfig()
  const logger = createLogger(config.logLevel)
  const world = await startDevnetWorld({ config, logger, clock: Date.now })
  process.stdout.write(`${JSON.stringify({ ready: world.rpcUrl, warm: world.warm, pid: process.pid })}\n`)
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    void world.stop().finally(() => process.exit(0))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

main().catch((err: unknown) => {
  process.stderr.write(`fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  process.exit(1)
})
