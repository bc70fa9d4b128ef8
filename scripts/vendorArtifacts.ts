/**
 * Re-creates the vendored artifacts in src/devnet/artifacts/ from npm tarballs that cannot be installed as
 * dependencies here:
 *   - SwapRouter02 from @uniswap/swap-router-contracts@1.3.1 (its hardhat-watcher peer dependency pulls
 *     in Hardhat 2);
 *   - AdaptiveCurveIrm and MetaMorpho (v1.0) from @morpho-org/morpho-blue-bundlers@1.1.2, whose ethers
 *     typechain factories embed the real compiled bytecode (@morpho-org/metamorpho on npm is empty).
 *
 * Usage:
 *   mkdir -p /tmp/vendor && cd /tmp/vendor
 *   npm pack @uniswap/swap-router-contracts@1.3.1 @morpho-org/morpho-blue-bundlers@1.1.2
 *   for f in *.tgz; do mkdir -p "${f%.tgz}" && tar xzf "$f" -C "${f%.tgz}"; done
 *   npx tsx scripts/vendorArtifacts.ts /tmp/vendor
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'src/devnet/artifacts')

interface Vendored {
  contractName: string
  abi: unknown[]
  bytecode: string
  deployedBytecode: string
  source: string
}

function fromHardhat(path: string, source: string): Vendored {
  const json = JSON.parse(readFileSync(path, 'utf8')) as Vendored & { linkReferences?: object }
  if (json.linkReferences !== undefined && Object.keys(json.linkReferences).length > 0) {
    throw new Error(`${path} needs linking, which the vendored set does not support`)
  }
  return {
    contractName: json.contractName,
    abi: json.abi,
    bytecode: json.bytecode,
    deployedBytecode: json.deployedBytecode,
    source,
  }
}

/** Evaluate an ethers-v6 typechain factory with a stub `ethers` to read its static abi and bytecode. */
function fromTypechain(path: string, exportName: string, contractName: string, source: string): Vendored {
  const code = readFileSync(path, 'utf8')
  const module = { exports: {} as Record<string, { abi: unknown[]; bytecode: string }> }
  const ethersStub = { ContractFactory: class {}, Interface: { from: () => ({}) }, Contract: class {} }
  new Function('exports', 'require', code)(module.exports, () => ethersStub)
  const factory = module.exports[exportName]
  if (factory === undefined) throw new Error(`${exportName} not found in ${path}`)
  // Typechain factories carry creation code only; the deploy code path reads runtime code from the chain.
  return { contractName, abi: factory.abi, bytecode: factory.bytecode, deployedBytecode: '0x', source }
}

function main(): void {
  const base = process.argv[2]
  if (base === undefined)
    throw new Error('usage: tsx scripts/vendorArtifacts.ts <dir with extracted tarballs>')
  const router = join(base, 'uniswap-swap-router-contracts-1.3.1/package')
  const bundlers = join(base, 'morpho-org-morpho-blue-bundlers-1.1.2/package/types/factories/lib')
  const artifacts = [
    fromHardhat(
      join(router, 'artifacts/contracts/SwapRouter02.sol/SwapRouter02.json'),
      'npm-tarball:@uniswap/swap-router-contracts@1.3.1/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json',
    ),
    fromTypechain(
      join(bundlers, 'morpho-blue-irm/src/adaptive-curve-irm/AdaptiveCurveIrm__factory.js'),
      'AdaptiveCurveIrm__factory',
      'AdaptiveCurveIrm',
      'npm-tarball:@morpho-org/morpho-blue-bundlers@1.1.2/types/factories/lib/morpho-blue-irm/src/adaptive-curve-irm/AdaptiveCurveIrm__factory.js',
    ),
    fromTypechain(
      join(bundlers, 'metamorpho/src/MetaMorpho__factory.js'),
      'MetaMorpho__factory',
      'MetaMorpho',
      'npm-tarball:@morpho-org/morpho-blue-bundlers@1.1.2/types/factories/lib/metamorpho/src/MetaMorpho__factory.js',
    ),
  ]
  for (const artifact of artifacts) {
    writeFileSync(join(outDir, `${artifact.contractName}.json`), `${JSON.stringify(artifact)}\n`)
    console.log(`vendored ${artifact.contractName} (${(artifact.bytecode.length - 2) / 2} bytes)`)
  }
}

main()
