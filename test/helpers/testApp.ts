import { createApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { createLogger } from '../../src/logger.js'
import { createReadiness } from '../../src/readiness.js'
import type { Route } from '../../src/routes/route.js'
import { createServices } from '../../src/services.js'

/**
 * The app exactly as main.ts builds it, on the default profile, with logs silenced, an in-memory
 * ledger and a rate ceiling high enough for table-driven tests. `services.close()` releases it.
 */
export async function testApp(env: NodeJS.ProcessEnv = {}, routes?: readonly Route[]) {
  const config = loadConfig({ DATA_DIR: 'memory://', RATE_LIMIT_UNPAID: '1000000', ...env })
  const readiness = createReadiness()
  readiness.register('http')
  readiness.markReady('http')
  const services = await createServices(config, createLogger('silent'), readiness)
  return {
    app: createApp({ deps: services.deps, ...(routes ? { routes } : {}) }),
    deps: services.deps,
    services,
  }
}
/** Fill `{name}` placeholders of an OpenAPI path with a valid-looking value. */
export function samplePath(path: string): string {
  return path
    .replace('{address}', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    .replace('{wallet}', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    .replace('{sym}', 'BTC')
}
