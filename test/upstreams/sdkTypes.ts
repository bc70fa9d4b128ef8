import { mkdirSync, readFileSync } from 'node:fs'
import ts from 'typescript'
import { PROJECT_ROOT } from '../../src/projectRoot.js'

/**
 * Checks a JSON value against a type of an upstream's official SDK, as that SDK's own users' compiler
 * would: the vendored declaration file (test/fixtures/upstreams/<name>/…d.ts.txt) and a probe
 * `const probe: Type = <value>` compiled together, strict. An object literal is held to the declared
 * properties exactly (a missing required field, a number where a string is declared, an undeclared
 * field). Imports the declaration file makes of the SDK's other modules are not vendored: the types they
 * name are `any` to the probe, so only what the file itself declares is checked.
 */
/** `typeName`: a type the file exports, or an array of it (`Name[]`). */
export function sdkTypeProblems(declarationFixture: string, typeName: string, value: unknown): string[] {
  const dts = readFileSync(new URL(`../fixtures/upstreams/${declarationFixture}`, import.meta.url), 'utf8')
  // Virtual files inside the checkout, so the SDK's imports of viem resolve to our node_modules (Address
  // is `0x${string}`, not any).
  const at = `${PROJECT_ROOT}/.cache/sdk-probe`
  mkdirSync(at, { recursive: true })
  const files = new Map([
    [`${at}/vendored.d.ts`, dts],
    [
      `${at}/probe.ts`,
      `import type { ${typeName.replace(/\[\]$/, '')} } from './vendored'\nexport const probe: ${typeName} = ${JSON.stringify(value, null, 1)}\n`,
    ],
  ])
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  }
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile.bind(host)
  const getSourceFile = host.getSourceFile.bind(host)
  host.fileExists = (f) => files.has(f) || ts.sys.fileExists(f)
  host.readFile = (f) => files.get(f) ?? readFile(f)
  host.getSourceFile = (f, language) => {
    const text = files.get(f)
    return text === undefined ? getSourceFile(f, language) : ts.createSourceFile(f, text, language)
  }
  const program = ts.createProgram([`${at}/probe.ts`], options, host)
  const probe = program.getSourceFile(`${at}/probe.ts`)
  return [...program.getSyntacticDiagnostics(probe), ...program.getSemanticDiagnostics(probe)].map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  )
}
