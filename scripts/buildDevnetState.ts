/**
 * Build the devnet state cache: `npx tsx scripts/buildDevnetState.ts [cacheDir]`.
 * Deploys everything into a temporary anvil and writes state.json + manifest.json (default .cache/devnet).
 */
import { buildDevnetState, DEFAULT_DEVNET_CACHE_DIR } from '../src/devnet/buildState.js'

const cacheDir = process.argv[2] ?? DEFAULT_DEVNET_CACHE_DIR
const result = await buildDevnetState({ cacheDir })
console.log(`devnet state built in ${result.buildMs} ms (key ${result.manifest.cacheKey})`)
console.log(`  ${result.statePath}\n  ${result.manifestPath}`)
for (const skipped of result.manifest.skippedModules)
  console.log(`  module ${skipped.name} skipped: ${skipped.reason}`)
