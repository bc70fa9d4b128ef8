/**
 * Build step for the devnet contracts: `npx tsx scripts/buildContracts.ts`.
 *
 * 1. Compiles every contracts/**\/*.sol with solc-js 0.8.28 (evm cancun), or 0.8.19 when a file pins it.
 * 2. Compiles Morpho Blue from @morpho-org/morpho-blue with solc 0.8.19 (viaIR, runs 999999: the settings
 *    Morpho ships with).
 * 3. Copies the npm artifacts the devnet deploys (Uniswap v3, Aave v3, WETH9).
 * 4. Checks that the vendored artifacts (SwapRouter02, AdaptiveCurveIrm, MetaMorpho — see
 *    scripts/vendorArtifacts.ts) are present.
 * Writes one compact JSON per contract into src/devnet/artifacts/. Compiler outputs are cached in
 * .cache/solc keyed by the compiler input, so re-running after a small change only recompiles that group.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const outDir = join(root, 'src/devnet/artifacts')
const cacheDir = join(root, '.cache/solc')

interface Solc {
  version(): string
  compile(
    input: string,
    callbacks: { import: (path: string) => { contents: string } | { error: string } },
  ): string
}

interface LinkReferences {
  [file: string]: { [library: string]: { start: number; length: number }[] }
}

interface CompiledContract {
  abi: unknown[]
  evm: {
    bytecode: { object: string; linkReferences: LinkReferences }
    deployedBytecode: { object: string }
  }
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string; message: string }[]
  contracts?: Record<string, Record<string, CompiledContract>>
}

interface ArtifactJson {
  contractName: string
  abi: unknown[]
  bytecode: string
  deployedBytecode: string
  linkReferences?: LinkReferences
  source: string
}

/** Artifacts copied verbatim from npm packages that are installed as devDependencies. */
const NPM_ARTIFACTS: Record<string, string> = {
  UniswapV3Factory: '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json',
  NonfungiblePositionManager:
    '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
  QuoterV2: '@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
  TickLens: '@uniswap/v3-periphery/artifacts/contracts/lens/TickLens.sol/TickLens.json',
  WETH9: '@aave/core-v3/artifacts/contracts/dependencies/weth/WETH9.sol/WETH9.json',
  PoolAddressesProvider:
    '@aave/core-v3/artifacts/contracts/protocol/configuration/PoolAddressesProvider.sol/PoolAddressesProvider.json',
  ACLManager: '@aave/core-v3/artifacts/contracts/protocol/configuration/ACLManager.sol/ACLManager.json',
  SupplyLogic: '@aave/core-v3/artifacts/contracts/protocol/libraries/logic/SupplyLogic.sol/SupplyLogic.json',
  BorrowLogic: '@aave/core-v3/artifacts/contracts/protocol/libraries/logic/BorrowLogic.sol/BorrowLogic.json',
  LiquidationLogic:
    '@aave/core-v3/artifacts/contracts/protocol/libraries/logic/LiquidationLogic.sol/LiquidationLogic.json',
  EModeLogic: '@aave/core-v3/artifacts/contracts/protocol/libraries/logic/EModeLogic.sol/EModeLogic.json',
  BridgeLogic: '@aave/core-v3/artifacts/contracts/protocol/libraries/logic/BridgeLogic.sol/BridgeLogic.json',
  FlashLoanLogic:
    '@aave/core-v3/artifacts/contracts/protocol/libraries/logic/FlashLoanLogic.sol/FlashLoanLogic.json',
  PoolLogic: '@aave/core-v3/artifacts/contracts/protocol/libraries/logic/PoolLogic.sol/PoolLogic.json',
  ConfiguratorLogic:
    '@aave/core-v3/artifacts/contracts/protocol/libraries/logic/ConfiguratorLogic.sol/ConfiguratorLogic.json',
  L2Pool: '@aave/core-v3/artifacts/contracts/protocol/pool/L2Pool.sol/L2Pool.json',
  PoolConfigurator:
    '@aave/core-v3/artifacts/contracts/protocol/pool/PoolConfigurator.sol/PoolConfigurator.json',
  AaveOracle: '@aave/core-v3/artifacts/contracts/misc/AaveOracle.sol/AaveOracle.json',
  AaveProtocolDataProvider:
    '@aave/core-v3/artifacts/contracts/misc/AaveProtocolDataProvider.sol/AaveProtocolDataProvider.json',
  AToken: '@aave/core-v3/artifacts/contracts/protocol/tokenization/AToken.sol/AToken.json',
  VariableDebtToken:
    '@aave/core-v3/artifacts/contracts/protocol/tokenization/VariableDebtToken.sol/VariableDebtToken.json',
  StableDebtToken:
    '@aave/core-v3/artifacts/contracts/protocol/tokenization/StableDebtToken.sol/StableDebtToken.json',
  DefaultReserveInterestRateStrategy:
    '@aave/core-v3/artifacts/contracts/protocol/pool/DefaultReserveInterestRateStrategy.sol/DefaultReserveInterestRateStrategy.json',
}

/** Artifacts taken from npm tarballs that cannot be installed here (see scripts/vendorArtifacts.ts). */
const VENDORED = ['SwapRouter02', 'AdaptiveCurveIrm', 'MetaMorpho']

function listSol(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return listSol(path)
    return entry.name.endsWith('.sol') ? [path] : []
  })
}

function findImport(path: string): { contents: string } | { error: string } {
  const candidates = [join(root, path), join(root, 'node_modules', path), join(root, 'contracts', path)]
  for (const candidate of candidates) {
    if (existsSync(candidate)) return { contents: readFileSync(candidate, 'utf8') }
  }
  return { error: `not found: ${path}` }
}

function compile(solc: Solc, sources: Record<string, string>, settings: Record<string, unknown>): SolcOutput {
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])),
    settings: {
      ...settings,
      outputSelection: {
        '*': {
          '*': ['abi', 'evm.bytecode.object', 'evm.bytecode.linkReferences', 'evm.deployedBytecode.object'],
        },
      },
    },
  }
  const inputJson = JSON.stringify(input)
  const key = createHash('sha256').update(solc.version()).update(inputJson).digest('hex').slice(0, 24)
  const cached = join(cacheDir, `${key}.json`)
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as SolcOutput
  const started = Date.now()
  const output = JSON.parse(solc.compile(inputJson, { import: findImport })) as SolcOutput
  console.log(
    `  solc ${solc.version()} compiled ${Object.keys(sources).length} file(s) in ${Date.now() - started} ms`,
  )
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length === 0) {
    mkdirSync(cacheDir, { recursive: true })
    writeFileSync(cached, JSON.stringify(output))
  }
  return output
}

function errorsOf(output: SolcOutput): string[] {
  return (output.errors ?? []).filter((e) => e.severity === 'error').map((e) => e.formattedMessage)
}

function pinned0819(source: string): boolean {
  return /pragma solidity\s*=?\s*0\.8\.19\s*;/.test(source)
}

const artifacts = new Map<string, ArtifactJson>()

function add(artifact: ArtifactJson): void {
  const existing = artifacts.get(artifact.contractName)
  if (existing !== undefined) {
    throw new Error(
      `two contracts are named ${artifact.contractName}: ${existing.source} and ${artifact.source}`,
    )
  }
  artifacts.set(artifact.contractName, artifact)
}

function collect(output: SolcOutput, wanted: (file: string) => boolean, label: string): void {
  for (const [file, contracts] of Object.entries(output.contracts ?? {})) {
    if (!wanted(file)) continue
    for (const [name, contract] of Object.entries(contracts)) {
      // Interfaces, abstract contracts and constant-only libraries have nothing to deploy.
      if (contract.evm.bytecode.object === '') continue
      const linkReferences = contract.evm.bytecode.linkReferences
      add({
        contractName: name,
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
        deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
        ...(Object.keys(linkReferences).length > 0 ? { linkReferences } : {}),
        source: `${label}:${file}`,
      })
    }
  }
}

function compileOwnSources(solc0828: Solc, solc0819: Solc): void {
  const files = listSol(join(root, 'contracts'))
  const groups: { solc: Solc; evmVersion: string; files: string[] }[] = [
    { solc: solc0828, evmVersion: 'cancun', files: [] },
    { solc: solc0819, evmVersion: 'paris', files: [] },
  ]
  for (const file of files) {
    const source = readFileSync(file, 'utf8')
    groups[pinned0819(source) ? 1 : 0]!.files.push(file)
  }
  for (const group of groups) {
    // Each file is its own compilation unit, so a broken file names itself and unrelated files still
    // build from cache; viaIR is used only when the legacy pipeline runs out of stack.
    for (const file of group.files) {
      const name = relative(root, file)
      const sources = { [name]: readFileSync(file, 'utf8') }
      const base = { optimizer: { enabled: true, runs: 200 }, evmVersion: group.evmVersion }
      let output = compile(group.solc, sources, base)
      if (errorsOf(output).some((e) => e.includes('Stack too deep'))) {
        output = compile(group.solc, sources, { ...base, viaIR: true })
      }
      const errors = errorsOf(output)
      if (errors.length > 0) throw new Error(`${name} failed to compile:\n${errors.join('\n')}`)
      collect(output, (f) => f === name, 'contracts')
    }
  }
}

function compileMorphoBlue(solc0819: Solc): void {
  const path = '@morpho-org/morpho-blue/src/Morpho.sol'
  const output = compile(
    solc0819,
    { [path]: readFileSync(join(root, 'node_modules', path), 'utf8') },
    { optimizer: { enabled: true, runs: 999999 }, viaIR: true, evmVersion: 'paris' },
  )
  const errors = errorsOf(output)
  if (errors.length > 0) throw new Error(`Morpho Blue failed to compile:\n${errors.join('\n')}`)
  collect(output, (f) => f === path, 'npm')
}

interface HardhatArtifact {
  contractName: string
  abi: unknown[]
  bytecode: string
  deployedBytecode: string
  linkReferences?: LinkReferences
}

function copyNpmArtifacts(): void {
  for (const [name, path] of Object.entries(NPM_ARTIFACTS)) {
    const json = JSON.parse(readFileSync(require.resolve(path), 'utf8')) as HardhatArtifact
    const linkReferences = json.linkReferences ?? {}
    add({
      contractName: name,
      abi: json.abi,
      bytecode: json.bytecode,
      deployedBytecode: json.deployedBytecode,
      ...(Object.keys(linkReferences).length > 0 ? { linkReferences } : {}),
      source: `npm:${path}`,
    })
  }
}

function main(): void {
  const started = Date.now()
  const solc0828 = require('solc') as Solc
  const solc0819 = require('solc-0.8.19') as Solc
  compileOwnSources(solc0828, solc0819)
  compileMorphoBlue(solc0819)
  copyNpmArtifacts()

  mkdirSync(outDir, { recursive: true })
  const keep = new Set([...artifacts.keys(), ...VENDORED].map((name) => `${name}.json`))
  for (const name of VENDORED) {
    if (!existsSync(join(outDir, `${name}.json`))) {
      throw new Error(`vendored artifact ${name}.json is missing; run scripts/vendorArtifacts.ts`)
    }
  }
  for (const file of readdirSync(outDir)) {
    if (file.endsWith('.json') && !keep.has(file)) rmSync(join(outDir, file))
  }
  for (const artifact of [...artifacts.values()].sort((a, b) =>
    a.contractName.localeCompare(b.contractName),
  )) {
    const path = join(outDir, `${artifact.contractName}.json`)
    const text = `${JSON.stringify(artifact)}\n`
    // Skip unchanged files so the devnet state cache key (a hash over these files) stays stable.
    if (existsSync(path) && readFileSync(path, 'utf8') === text) continue
    writeFileSync(path, text)
  }
  console.log(
    `wrote ${artifacts.size} artifacts (+${VENDORED.length} vendored) to ${relative(root, outDir)} in ${Date.now() - started} ms`,
  )
}

main()
