import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PROJECT_ROOT } from '../../projectRoot.js'

/**
 * The file a route's example output is generated into: `<operationId>.example.json` beside the route's
 * source, `src/routes/<area>/`. Like the other committed artifacts it is read from the checkout's `src/`
 * also when the compiled route in `dist/src/` asks, so the build copies nothing.
 */
export function exampleFile(routeModuleUrl: string): string {
  const compiled = join(PROJECT_ROOT, 'dist')
  const module = fileURLToPath(routeModuleUrl)
  const source = module.startsWith(`${compiled}/`) ? join(PROJECT_ROOT, relative(compiled, module)) : module
  return source.replace(/\.(ts|js)$/, '.example.json')
}

/**
 * A route's example output, as `npm run examples` (scripts/generateExamples.ts) wrote it from what the
 * devnet answers the route's example input. The value is not typed: test/routeExamples.test.ts checks it
 * equals what the current build serves, and the bazaar tests parse it with the route's output schema.
 * Undefined while the file is missing (a new route before its first `npm run examples`).
 */
export function exampleOutput(routeModuleUrl: string): unknown {
  const file = exampleFile(routeModuleUrl)
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : undefined
}
