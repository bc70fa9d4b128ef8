/**
 * Install-time preparation (`npm ci` runs it as the prepare step, after the build), so that the first
 * `npm start` and the first test run find everything ready: the devnet state (about 10 s of deploys into
 * a temporary anvil) and the migrated PGlite template (initdb once, not at every new data directory).
 * Both are caches under .cache/, rebuilt here or on first use when their inputs change.
 */
import { ensureDevnetState } from '../src/devnet/buildState.js'
import { ensurePgliteTemplate } from '../src/store/pgliteTemplate.js'

const say = (message: string) => process.stdout.write(`[prepare] ${message}\n`)
const started = performance.now()
await ensureDevnetState(undefined, say)
say(`devnet state ready (${Math.round(performance.now() - started)} ms)`)
const template = await ensurePgliteTemplate()
say(`PGlite template ready: ${template} (${Math.round(performance.now() - started)} ms)`)
