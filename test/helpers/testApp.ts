import { createApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { createLogger } from '../../src/logger.js'
import { createReadiness } from '../../src/readiness.js'

/** The app exactly as main.ts builds it, on the default profile, with logs silenced. */
export function testApp(env: NodeJS.ProcessEnv = {}) {
  const config = loadConfig(env)
  const readiness = createReadiness()
  readiness.register('http')
  readiness.markReady('http')
  const deps = { config, logger: createLogger('silent'), readiness, clock: Date.now }
  return { app: createApp({ deps }), deps }
}

/** Fill `{name}` placeholders of an OpenAPI path with a valid-looking value. */
export function samplePath(path: string): string {
  return path
    .replace('{address}', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    .replace('{wallet}', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    .replace('{sym}', 'BTC')
}
