import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'
import { PROJECT_ROOT } from '../src/projectRoot.js'

const SRC = join(PROJECT_ROOT, 'src')
const DEVNET = join(SRC, 'devnet')
/**
 * The process entry starts the devnet world on the default profile, through the stack (world, services,
 * HTTP service: src/stack.ts, which the benches and scripts share); nothing else in src may reach it.
 */
const ALLOWED = new Set([join(SRC, 'main.ts'), join(SRC, 'stack.ts')])

/**
 * The layers of src, top to bottom. A "module" is a top-level folder of src or a top-level file (without
 * `.ts`). A module may import from itself, from a module of a lower layer, or from a leaf; the modules of
 * one layer are peers and do not import each other.
 *
 * - `discovery` sits above `routes`: it renders whatever route table it is handed (the OpenAPI document,
 *   tools, the well-known documents), so it needs the route record, never the reverse. What the route
 *   `GET /v1` needs of it (the catalog, the payment terms, the routes' JSON Schemas) lives in
 *   `routes/shared/`; the x402 `bazaar` extension every challenge carries lives in `payments/`.
 * - `deps` (src/deps.ts, the dependency container every handler receives) sits between the routes and
 *   the layers below: it names only their types. The payment gate, below it, asks for `PaymentServices`
 *   (src/payments/paymentServices.ts), which the container extends.
 * - `config` sits above `chain`: its devnet defaults are chain facts (the address book, the anvil keys).
 * - `payments` is one module (src/payments/createPayments.ts builds it): the gate, the `exact`, `batch`
 *   and UTIL credit rails, the facilitator, the ceilings. `prop` (the prop desk) sits above it and the
 *   builders: it plans and sends builders' bundles from the desk's wallet.
 */
const LAYERS: readonly (readonly string[])[] = [
  // The process entries: the service, and the `agentdesk` command line (a client of the service).
  ['main', 'cli'],
  // World, services and HTTP service put together once, for the process entry, the benches and the scripts.
  ['stack'],
  // The app with the unpaid fast path in front of it, sharing its payment gates: what is served.
  ['httpService'],
  // The HTTP app, the service graph, the local devnet world: what the process entry wires together.
  ['app', 'services', 'devnet'],
  // Hono: the router, middleware, the payment gate's and the discovery documents' adapters.
  ['http'],
  // The MCP server (tools from the route table, paid through the routes' own gates) and the web pages.
  ['mcp', 'web'],
  ['discovery'],
  ['routes'],
  ['deps'],
  // The prop desk runs builders' actions from the desk's wallet; the preflight calls the views the
  // builders and reads depend on, with their ABIs.
  ['prop', 'preflight'],
  ['builders'],
  ['market', 'payments', 'referrals'],
  ['analytics'],
  ['config'],
  ['chain', 'store'],
]
/** Modules any layer may import; they import nothing of src but other leaves. */
const LEAVES = [
  'errors',
  'logger',
  'projectRoot',
  'readiness',
  'exitWatchdog',
  'jsonSchema',
  'ttlCache',
  'prose',
  'circuitBreaker',
  'rounds',
  'shutdown',
]

/** Where Hono may be imported: the HTTP layer and the two files that build and serve the app. */
const HONO_ALLOWED = [
  join(SRC, 'http'),
  join(SRC, 'app.ts'),
  join(SRC, 'httpService.ts'),
  join(SRC, 'main.ts'),
]
/**
 * The devnet's upstream simulators are HTTP servers of their own (fake market APIs), built with Hono; they
 * are not the service, and only the process entry starts them (the devnet rule above).
 */
const HONO_EXEMPT = [DEVNET]

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return tsFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep)

/**
 * Every module specifier of a source (static, type-only, re-export, side-effect and dynamic imports),
 * as TypeScript's own scanner finds them: comments and strings that merely look like imports are ignored.
 */
function specifiers(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName)
}

/** The src/devnet modules that `file` (an absolute path) imports, when it is not allowed to. */
function devnetImports(file: string, source: string): string[] {
  if (ALLOWED.has(file) || inside(file, DEVNET)) return []
  return specifiers(source).filter(
    (spec) => spec.startsWith('.') && inside(resolve(dirname(file), spec), DEVNET),
  )
}

/** The module of an absolute path under src: its top-level folder, or its file name without extension. */
function moduleOf(path: string): string | undefined {
  if (!inside(path, SRC)) return undefined
  const [first = '', ...rest] = relative(SRC, path).split(sep)
  return rest.length === 0 ? first.replace(/(\.test)?\.[cm]?[jt]s$/, '') : first
}

const layerOf = (module: string) => LAYERS.findIndex((layer) => layer.includes(module))

function mayImport(from: string, to: string): boolean {
  if (from === to) return true
  if (LEAVES.includes(to)) return true
  if (LEAVES.includes(from)) return false
  const [a, b] = [layerOf(from), layerOf(to)]
  return a !== -1 && b !== -1 && b > a
}

/**
 * The imports of `file` that break the layer order. Tests are exempt: they assemble what they check from
 * any layer (a payments test builds its challenge from a real route record).
 */
function upwardImports(file: string, source: string): string[] {
  const from = moduleOf(file)
  if (from === undefined || file.endsWith('.test.ts')) return []
  return specifiers(source).filter((spec) => {
    if (!spec.startsWith('.')) return false
    const to = moduleOf(resolve(dirname(file), spec))
    return to !== undefined && !mayImport(from, to)
  })
}

const isHono = (spec: string) => spec === 'hono' || spec.startsWith('hono/') || spec.startsWith('@hono/')

/** The Hono packages `file` imports, when it is not allowed to. */
function honoImports(file: string, source: string): string[] {
  if ([...HONO_ALLOWED, ...HONO_EXEMPT].some((dir) => inside(file, dir))) return []
  return specifiers(source).filter(isHono)
}

function offenders(check: (file: string, source: string) => string[]): string[] {
  return tsFiles(SRC).flatMap((file) =>
    check(file, readFileSync(file, 'utf8')).map((spec) => `${relative(PROJECT_ROOT, file)} → ${spec}`),
  )
}

describe('layering', () => {
  test('behavior: no module under src/ except src/main.ts and src/stack.ts imports from src/devnet/', () => {
    expect(offenders(devnetImports)).toEqual([])
  })

  test('behavior: the check sees every kind of import, and only real ones', () => {
    const file = join(SRC, 'market', 'example.ts')
    const source = [
      "import { a } from '../devnet/anvil.js'",
      "import type { B } from '../devnet/deploy/morpho.js'",
      "export { c } from '../devnet/keeper.js'",
      "import '../devnet/pricePusher.js'",
      "const d = await import('../devnet/startDevnetWorld.js')",
      "import { e } from '../chain/addresses.js'",
      "// import { f } from '../devnet/comment.js'",
      'const g = "import { h } from \'../devnet/string.js\'"',
    ].join('\n')
    expect(devnetImports(file, source)).toEqual([
      '../devnet/anvil.js',
      '../devnet/deploy/morpho.js',
      '../devnet/keeper.js',
      '../devnet/pricePusher.js',
      '../devnet/startDevnetWorld.js',
    ])
    // The devnet's own files and the process entry may import the devnet.
    expect(devnetImports(join(DEVNET, 'keeper.ts'), source)).toEqual([])
    expect(devnetImports(join(SRC, 'main.ts'), source)).toEqual([])
    // A sibling directory whose name merely starts with "devnet" is not the devnet.
    expect(devnetImports(file, "import { x } from '../devnetTools/x.js'")).toEqual([])
  })

  test('behavior: every top-level folder and file of src has its place in the layers', () => {
    const modules = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory() || (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')))
      .map((e) => moduleOf(join(SRC, e.name)) ?? e.name)
    const placed = new Set([...LAYERS.flat(), ...LEAVES])
    expect(modules.filter((m) => !placed.has(m))).toEqual([])
    // Each module is placed once.
    expect([...LAYERS.flat(), ...LEAVES].length).toBe(placed.size)
  })

  test('behavior: every module of src imports only from its own folder, a lower layer, or a leaf', () => {
    expect(offenders(upwardImports)).toEqual([])
  })

  test('behavior: the layer check sees every kind of upward import, peers and leaves included', () => {
    const gate = join(SRC, 'payments', 'example.ts')
    const source = [
      "import { a } from '../http/env.js'",
      "import type { B } from '../routes/route.js'",
      "export { c } from '../discovery/openapi.js'",
      "import '../builders/swap.js'",
      "const d = await import('../deps.js')",
      "import { e } from '../market/marketData.js'",
      "import { f } from '../chain/network.js'",
      "import { g } from '../store/ledger.js'",
      "import { h } from '../config.js'",
      "import { i } from '../errors.js'",
      "import { j } from './paymentError.js'",
      "import { z } from 'zod'",
      "// import { k } from '../http/comment.js'",
      'const l = "import { m } from \'../routes/string.js\'"',
    ].join('\n')
    expect(upwardImports(gate, source)).toEqual([
      '../http/env.js',
      '../routes/route.js',
      '../discovery/openapi.js',
      '../builders/swap.js',
      '../deps.js',
      // A peer of the same layer.
      '../market/marketData.js',
    ])
    // A leaf imports nothing of src but other leaves; an unplaced folder may import nothing.
    expect(upwardImports(join(SRC, 'errors.ts'), "import { a } from './config.js'")).toEqual(['./config.js'])
    expect(upwardImports(join(SRC, 'errors.ts'), "import { a } from './logger.js'")).toEqual([])
    expect(upwardImports(join(SRC, 'newThing', 'x.ts'), "import { a } from '../chain/network.js'")).toEqual([
      '../chain/network.js',
    ])
    // Downward within the stack, and within one folder at any depth.
    expect(upwardImports(join(SRC, 'http', 'x.ts'), "import { a } from '../discovery/openapi.js'")).toEqual(
      [],
    )
    expect(
      upwardImports(join(SRC, 'routes', 'tx', 'x.ts'), "import { a } from '../shared/fields.js'"),
    ).toEqual([])
    // Tests may import from any layer.
    expect(upwardImports(join(SRC, 'payments', 'example.test.ts'), source)).toEqual([])
  })

  test('behavior: only src/http/, src/app.ts, src/httpService.ts and src/main.ts import Hono', () => {
    expect(offenders(honoImports)).toEqual([])
  })

  test('behavior: the Hono check sees every Hono package, and only Hono', () => {
    const source = [
      "import { Hono } from 'hono'",
      "import type { Context } from 'hono'",
      "import { cors } from 'hono/cors'",
      "import { serve } from '@hono/node-server'",
      "const { getConnInfo } = await import('@hono/node-server/conninfo')",
      "import { honorific } from 'honorific'",
      "// import { Hono } from 'hono'",
    ].join('\n')
    const hono = ['hono', 'hono', 'hono/cors', '@hono/node-server', '@hono/node-server/conninfo']
    expect(honoImports(join(SRC, 'payments', 'paymentGate.ts'), source)).toEqual(hono)
    expect(honoImports(join(SRC, 'payments', 'paymentGate.test.ts'), source)).toEqual(hono)
    expect(honoImports(join(SRC, 'httpTools', 'x.ts'), source)).toEqual(hono)
    for (const allowed of ['http/paymentMiddleware.ts', 'app.ts', 'main.ts'])
      expect(honoImports(join(SRC, allowed), source)).toEqual([])
  })
})
