import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, test } from 'vitest'
import { PRICES } from '../src/routes/prices.js'
import type { Route } from '../src/routes/route.js'
import { routeTable } from '../src/routes/table.js'

/**
 * Every route is found from its URL (the rule is stated in src/routes/table.ts):
 * `GET /v1/loan/analysis/{address}` is `src/routes/loan/getLoanAnalysis.ts`, exporting `getLoanAnalysisRoute`.
 * Route folders hold route files only; shared pieces live in src/routes/shared/, and the top level holds the
 * table, its prices and the record type. Files stay small and lines readable.
 */
const root = join(import.meta.dirname, '..')
const routesDir = join(root, 'src/routes')
const TOP_LEVEL = ['inputLocation.ts', 'prices.ts', 'route.ts', 'table.ts']
/**
 * Generated example outputs (`<operationId>.example.json` beside the route file, written by `npm run
 * examples`) are exempt from the line and length rules: they are data, not source.
 */
const GENERATED = /\.example\.(ts|json)$/
/**
 * Human-readable ABI signatures (`'function …'`, `'struct …'`) are parsed by abitype from the literal type
 * of one string, so they cannot be wrapped; they are the only lines allowed past the limit.
 */
const ABI_SIGNATURE = /^\s*'(function|struct|event|error|constructor) [^']*',?$/

function camel(segment: string): string {
  return segment.replace(/^\./, '').replace(/[-.]([a-z])/g, (_, c: string) => c.toUpperCase())
}

/** The folder the URL implies: static segments after /v1, all but the last when there are 2+. */
function routeFolder(path: string): string {
  const segments = path.split('/').filter(Boolean)
  const statics = (segments[0] === 'v1' ? segments.slice(1) : segments).filter((s) => !s.startsWith('{'))
  if (statics.length === 0) return 'root'
  return (statics.length === 1 ? statics : statics.slice(0, -1)).map(camel).join('/')
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path) : [path]
  })
}

const expectedFile = (route: Route) => join(routesDir, routeFolder(route.path), `${route.id}.ts`)

describe('route files', () => {
  test('default: the folder rule on the examples of the table comment', () => {
    expect(routeFolder('/v1/portfolio/{address}')).toBe('portfolio')
    expect(routeFolder('/v1/loan/analysis/{address}')).toBe('loan')
    expect(routeFolder('/v1/ideas/asset/{sym}')).toBe('ideas')
    expect(routeFolder('/v1/tx/risk/open')).toBe('tx/risk')
    expect(routeFolder('/v1/tx/swap')).toBe('tx')
    expect(routeFolder('/v1/util-credit/{wallet}')).toBe('utilCredit')
    expect(routeFolder('/v1')).toBe('root')
    expect(routeFolder('/.well-known/x402')).toBe('wellKnown')
  })

  test.each(routeTable.map((r) => [`${r.method} ${r.path}`, r] as const))(
    'behavior: %s lives in the file its URL and operationId imply',
    async (_, route) => {
      const file = expectedFile(route)
      const module = (await import(file)) as Record<string, unknown>
      expect(module[`${route.id}Route`], relative(root, file)).toBe(route)
      expect(Object.keys(module), 'one export per route file').toEqual([`${route.id}Route`])
      const text = readFileSync(file, 'utf8')
      expect(text).toContain(`id: '${route.id}',`)
      expect(text).toContain(`path: '${route.path}',`)
      expect(text, 'the price comes from PRICES').toContain(`priceUsd: PRICES.${route.id},`)
    },
  )

  test('behavior: route folders hold route files only (and each route’s generated example output)', () => {
    const routeFiles = new Set(routeTable.map(expectedFile))
    const exampleFiles = new Set(routeTable.map((r) => expectedFile(r).replace(/\.ts$/, '.example.json')))
    const stray = filesUnder(routesDir)
      .filter((f) => !f.endsWith('.test.ts'))
      .filter((f) => !exampleFiles.has(f))
      .filter((f) => !f.startsWith(join(routesDir, 'shared/')))
      .filter((f) => !TOP_LEVEL.map((t) => join(routesDir, t)).includes(f))
      .filter((f) => !routeFiles.has(f))
    expect(stray.map((f) => relative(root, f))).toEqual([])
  })

  test('behavior: the table is sorted by path, then method', () => {
    const keys = routeTable.map((r) => [r.path, r.method] as const)
    const sorted = [...keys].sort(([p, m], [q, n]) => (p === q ? (m < n ? -1 : 1) : p < q ? -1 : 1))
    expect(keys).toEqual(sorted)
  })

  test('behavior: every price comes from PRICES, which lists exactly the table', () => {
    expect(Object.keys(PRICES).sort()).toEqual(routeTable.map((r) => r.id).sort())
    for (const route of routeTable)
      expect(route.priceUsd, route.id).toBe(PRICES[route.id as keyof typeof PRICES])
  })

  test('behavior: no file in src/routes is over 300 lines', () => {
    const long = filesUnder(routesDir)
      .filter((f) => !GENERATED.test(f))
      .map((f) => ({ file: relative(root, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > 300)
    expect(long).toEqual([])
  })

  test('behavior: no source line in src is over 200 characters', () => {
    const long = filesUnder(join(root, 'src'))
      .filter((f) => f.endsWith('.ts') && !GENERATED.test(f))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({ at: `${relative(root, f)}:${i + 1}`, line }))
          .filter(({ line }) => line.length > 200 && !ABI_SIGNATURE.test(line)),
      )
    expect(long.map((l) => l.at)).toEqual([])
  })

  test('behavior: a route’s logic is found from its URL: each sub-folder of src/market and src/builders is a route folder’s name', () => {
    // GET /v1/loan/analysis/{address}: src/routes/loan/ → its logic in src/market/loan/; POST /v1/tx/fixed/borrow:
    // src/routes/tx/fixed/ → src/builders/fixed/ (the swap builder's, a route file at the top of tx/, in swap/).
    const folders = new Set(routeTable.map((r) => routeFolder(r.path)))
    const logicFolders = (dir: string, under: string) =>
      readdirSync(join(root, dir), { withFileTypes: true })
        .filter((e) => e.isDirectory() && e.name !== 'upstreams')
        .map((e) => ({ at: `${dir}/${e.name}`, route: under === '' ? e.name : `${under}/${e.name}` }))
    const unmatched = [...logicFolders('src/market', ''), ...logicFolders('src/builders', 'tx')].filter(
      // A logic folder names a route folder, or the parent of several (builders/lp for tx/lp/aero and tx/lp/uni).
      ({ route }) =>
        ![...folders].some((f) => f === route || f.startsWith(`${route}/`)) &&
        !(route === 'tx/swap' && folders.has('tx')),
    )
    expect(unmatched.map((u) => u.at)).toEqual([])
  })
})
