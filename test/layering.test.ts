import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'
import { PROJECT_ROOT } from '../src/projectRoot.js'

const SRC = join(PROJECT_ROOT, 'src')
const DEVNET = join(SRC, 'devnet')
/** The process entry starts the devnet world on the default profile; nothing else in src may reach it. */
const ALLOWED = new Set([join(SRC, 'main.ts')])

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

describe('layering', () => {
  test('behavior: no module under src/ except src/main.ts imports from src/devnet/', () => {
    const offenders = tsFiles(SRC).flatMap((file) =>
      devnetImports(file, readFileSync(file, 'utf8')).map(
        (spec) => `${relative(PROJECT_ROOT, file)} → ${spec}`,
      ),
    )
    expect(offenders).toEqual([])
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
})
