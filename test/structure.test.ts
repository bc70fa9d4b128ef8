import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'
import { PROJECT_ROOT } from '../src/projectRoot.js'

const SRC = join(PROJECT_ROOT, 'src')

/** Every .ts file under `dir` (tests and, when asked, src/devnet left out). */
function sources(dir: string, skipDevnet = true): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return skipDevnet && path === join(SRC, 'devnet') ? [] : sources(path)
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : []
  })
}

/** Every function's length in lines, with where it starts. */
function functionLengths(file: string): { at: string; lines: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const found: { at: string; lines: number }[] = []
  const visit = (node: ts.Node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isMethodDeclaration(node)
    ) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line
      found.push({ at: `${relative(PROJECT_ROOT, file)}:${start + 1}`, lines: end - start + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

// Issue 40's shape of the house, held: a function a newcomer reads in one sitting, folders of a size one
// can scan, the payment rails' route call in one place.
describe('the shape of src', () => {
  test('behavior: no function in src (src/devnet aside) is over 200 lines, and at most 8 are over 120', () => {
    const lengths = sources(SRC).flatMap(functionLengths)
    expect(lengths.filter((f) => f.lines > 200)).toEqual([])
    const long = lengths.filter((f) => f.lines > 120)
    expect(long.length, long.map((f) => `${f.at} (${f.lines})`).join(', ')).toBeLessThanOrEqual(8)
  })

  test('behavior: src/payments holds at most 12 files at its top level, src/builders and src/market at most 25 (the rest in folders)', () => {
    const entries = (folder: string) =>
      readdirSync(join(SRC, folder)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
        .length
    expect(entries('payments')).toBeLessThanOrEqual(12)
    expect(entries('builders')).toBeLessThanOrEqual(25)
    expect(entries('market')).toBeLessThanOrEqual(25)
  })

  test('behavior: the route handler is reached from one place in src/payments (the gate, between a rail’s two phases)', () => {
    const calls = sources(join(SRC, 'payments')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${relative(PROJECT_ROOT, file)}:${i + 1}` }))
        .filter(
          ({ line }) =>
            /\.next\(/.test(line) && !line.trim().startsWith('//') && !line.trim().startsWith('*'),
        ),
    )
    expect(calls.map((c) => c.at)).toHaveLength(1)
    expect(calls[0]?.at).toMatch(/^src\/payments\/gate\/paymentGate\.ts:/)
  })
})
