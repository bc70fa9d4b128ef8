/**
 * Compiles Solidity sources for tests with solc-js (0.8.28, cancun, optimizer 200: the build's settings,
 * scripts/buildContracts.ts), cached under the OS temp dir by compiler version and input, so a test never
 * depends on a stale artifact and a second run does not compile again.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Abi } from 'viem'
import type { Artifact } from '../../src/devnet/deployContext.js'

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const require = createRequire(import.meta.url)

interface Solc {
  version(): string
  compile(
    input: string,
    callbacks: { import: (path: string) => { contents: string } | { error: string } },
  ): string
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[]
  contracts?: Record<
    string,
    Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >
}

/** Every .sol file under `dir` (absolute), recursively. */
export function listSol(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return listSol(path)
    return entry.name.endsWith('.sol') ? [path] : []
  })
}

function findImport(path: string): { contents: string } | { error: string } {
  for (const candidate of [
    join(projectRoot, path),
    join(projectRoot, 'node_modules', path),
    join(projectRoot, 'contracts', path),
  ]) {
    if (existsSync(candidate)) return { contents: readFileSync(candidate, 'utf8') }
  }
  return { error: `not found: ${path}` }
}

/** Compiles `files` (absolute paths) in one unit; every deployable contract by name. */
export function compileSolidity(files: readonly string[]): Map<string, Artifact> {
  const sources = Object.fromEntries(
    files.map((f) => [relative(projectRoot, f), { content: readFileSync(f, 'utf8') }]),
  )
  const input = JSON.stringify({
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  })
  const solc = require('solc') as Solc
  const cacheDir = join(tmpdir(), 'agentdesk-test-solc')
  const key = createHash('sha256').update(solc.version()).update(input).digest('hex').slice(0, 24)
  const cached = join(cacheDir, `${key}.json`)
  let output: SolcOutput
  if (existsSync(cached)) {
    output = JSON.parse(readFileSync(cached, 'utf8')) as SolcOutput
  } else {
    output = JSON.parse(solc.compile(input, { import: findImport })) as SolcOutput
    const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
    if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
    mkdirSync(cacheDir, { recursive: true })
    // write-then-rename so parallel test workers never read a half-written cache file
    const partial = `${cached}.${process.pid}.tmp`
    writeFileSync(partial, JSON.stringify(output))
    renameSync(partial, cached)
  }
  const artifacts = new Map<string, Artifact>()
  for (const contracts of Object.values(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(contracts)) {
      if (c.evm.bytecode.object === '') continue
      artifacts.set(name, {
        contractName: name,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      })
    }
  }
  return artifacts
}

/** The test-only contracts of test/contracts (hostile payers and the like). */
export function testContracts(): Map<string, Artifact> {
  return compileSolidity(listSol(join(projectRoot, 'test/contracts')))
}
