/**
 * `npm run examples`: serves every priced route's example input on the pinned example world
 * (scripts/routeExamples.ts) and writes what it answers to `src/routes/<area>/<operationId>.example.json`,
 * the output the route publishes in its 402's `bazaar` extension. A route that answers 501 (capability not
 * built) keeps the output written in its record, and a file left from before is removed.
 * test/routeExamples.test.ts fails until the files equal what the current build serves.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { relative } from 'node:path'
import { PROJECT_ROOT } from '../src/projectRoot.js'
import { exampleFile, exampleText, serveAll, startExampleWorld } from './routeExamples.js'

const started = Date.now()
const world = await startExampleWorld()
try {
  const served = await serveAll(world)
  let changed = 0
  for (const [route, result] of served) {
    const file = exampleFile(route)
    const name = relative(PROJECT_ROOT, file)
    if (result.status !== 200) {
      if (existsSync(file)) {
        rmSync(file)
        process.stdout.write(`removed ${name} (${result.status}: its output is hand-written)\n`)
        changed++
      }
      continue
    }
    const text = exampleText(result.output)
    if (existsSync(file) && readFileSync(file, 'utf8') === text) continue
    writeFileSync(file, text)
    process.stdout.write(`wrote ${name}\n`)
    changed++
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  process.stdout.write(`[examples] ${served.size} routes served, ${changed} files changed, ${seconds} s\n`)
} finally {
  await world.stop()
}
