import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type ExampleWorld,
  exampleFile,
  exampleRoutes,
  exampleText,
  type Served,
  serveAll,
  startExampleWorld,
} from '../scripts/routeExamples.js'
import { PROJECT_ROOT } from '../src/projectRoot.js'
import type { Route } from '../src/routes/route.js'

/**
 * The examples the routes publish are what the current build serves: every priced route's example input is
 * served on the pinned example world (scripts/routeExamples.ts: its own devnet state and one frozen clock,
 * so nothing needs normalizing) and must equal, byte for byte, the checked-in
 * `src/routes/<area>/<operationId>.example.json`. It does not share the worker's world: that one's prices,
 * chain time and state follow the wall clock.
 */
const FIX = 'run `npm run examples` and commit the files it writes'

let world: ExampleWorld
let served: Map<Route, Served>

beforeAll(async () => {
  world = await startExampleWorld()
  served = await serveAll(world)
}, 240_000)
afterAll(async () => {
  await world?.stop()
})

const name = (route: Route) => relative(PROJECT_ROOT, exampleFile(route))

describe('route examples', () => {
  test.each(exampleRoutes().map((r) => [r.id, r] as const))(
    'behavior: %s publishes what its example input is served',
    (_, route) => {
      const result = served.get(route)
      const file = exampleFile(route)
      if (result?.status === 501 || result?.status === 'unreplayable') {
        // Not built yet, or an input that can be served once only: the record keeps a hand-written output,
        // and no generated file pretends otherwise.
        expect(existsSync(file), `${name(route)} exists for a ${result.status} route: ${FIX}`).toBe(false)
        expect(route.example?.output, `${route.id} needs a hand-written output`).toBeDefined()
        expect(route.output.safeParse(route.example?.output).success, route.id).toBe(true)
        return
      }
      expect(result?.status).toBe(200)
      expect(existsSync(file), `${name(route)} is missing: ${FIX}`).toBe(true)
      const text = readFileSync(file, 'utf8')
      const output = result?.status === 200 ? result.output : undefined
      expect(exampleText(output), `${name(route)} differs from what the current build serves: ${FIX}`).toBe(
        text,
      )
      // …and the record publishes exactly that file.
      expect(route.example?.output, `${route.id} does not load ${name(route)}`).toEqual(JSON.parse(text))
      expect(route.output.safeParse(output).success, route.id).toBe(true)
    },
  )

  test('behavior: every example file in src/routes belongs to a served priced route', () => {
    const expected = new Set(
      exampleRoutes()
        .filter((r) => served.get(r)?.status === 200)
        .map(exampleFile),
    )
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory()
          ? walk(join(dir, e.name))
          : e.name.endsWith('.example.json')
            ? [join(dir, e.name)]
            : [],
      )
    const stray = walk(join(PROJECT_ROOT, 'src/routes')).filter((f) => !expected.has(f))
    expect(
      stray.map((f) => relative(PROJECT_ROOT, f)),
      `stray example files: ${FIX}`,
    ).toEqual([])
  })
})
