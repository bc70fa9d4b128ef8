/**
 * `npm run build` (and `npm ci`'s prepare step): compiles src/ to dist/ with tsc, then stamps the build
 * with the time it started, so `npm start` can tell whether any source changed since (scripts/start.mjs).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const started = new Date()
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
  cwd: root,
  stdio: 'inherit',
})
if (result.status !== 0) process.exit(result.status ?? 1)
const stamp = join(root, 'dist/.buildstamp')
mkdirSync(join(root, 'dist'), { recursive: true })
writeFileSync(stamp, `${started.toISOString()}\n`)
utimesSync(stamp, started, started)
process.stdout.write(`[build] dist/ compiled in ${((Date.now() - started.getTime()) / 1000).toFixed(1)} s\n`)
