import { ensureDevnetState } from '../src/devnet/buildState.js'
import { ensurePgliteTemplate } from '../src/store/pgliteTemplate.js'
import { dropStaleTestSchemas } from './helpers/testDatabase.js'

/**
 * Runs once, before any test worker starts: builds the devnet state cache and the PGlite template if
 * they are missing or stale, so
 * workers never build it concurrently and a cold clone prints what it is doing instead of a silent
 * minute in some test's beforeAll. `npm ci` builds it already (the prepare step); this covers a cache
 * invalidated by a contract change since.
 */
export default async function setup(): Promise<void> {
  await ensureDevnetState(undefined, (message) => process.stdout.write(`[devnet] ${message}\n`))
  // Every service instance of the suite opens a database: from the template, not initdb.
  await ensurePgliteTemplate()
  await dropStaleTestSchemas()
}
