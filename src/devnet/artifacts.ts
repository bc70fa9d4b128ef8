import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Address, Hex } from 'viem'
import { PROJECT_ROOT } from '../projectRoot.js'
import type { Artifact } from './deployContext.js'

/**
 * Where scripts/buildContracts.ts writes one JSON per contract (committed, so runtime never compiles).
 * Always the source tree's copy, also when the compiled code runs.
 */
export const ARTIFACTS_DIR = join(PROJECT_ROOT, 'src/devnet/artifacts')

export class ArtifactNotFoundError extends Error {
  override readonly name = 'ArtifactNotFoundError'
  constructor(readonly contractName: string) {
    super(`no artifact named ${contractName} in ${ARTIFACTS_DIR}; run \`npx tsx scripts/buildContracts.ts\``)
  }
}

export class UnlinkedLibraryError extends Error {
  override readonly name = 'UnlinkedLibraryError'
}

const cache = new Map<string, Artifact>()

/** Load a compiled contract by name (file name without `.json`). Throws ArtifactNotFoundError if missing. */
export function loadArtifact(name: string): Artifact {
  const cached = cache.get(name)
  if (cached !== undefined) return cached
  const path = join(ARTIFACTS_DIR, `${name}.json`)
  if (!existsSync(path)) throw new ArtifactNotFoundError(name)
  const artifact = JSON.parse(readFileSync(path, 'utf8')) as Artifact
  cache.set(name, artifact)
  return artifact
}

/** Names of every artifact on disk, sorted. */
export function listArtifacts(): string[] {
  return readdirSync(ARTIFACTS_DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort()
}

/**
 * Creation bytecode with library placeholders replaced by addresses. `libraries` is keyed by library
 * name (e.g. `BorrowLogic`); every link reference must be resolved.
 */
export function linkBytecode(artifact: Artifact, libraries: Record<string, Address> = {}): Hex {
  let code = artifact.bytecode.slice(2)
  for (const byLibrary of Object.values(artifact.linkReferences ?? {})) {
    for (const [library, positions] of Object.entries(byLibrary)) {
      const address = libraries[library]
      if (address === undefined) {
        throw new UnlinkedLibraryError(
          `${artifact.contractName} needs library ${library}; pass it in \`libraries\``,
        )
      }
      const hex = address.slice(2).toLowerCase()
      for (const { start, length } of positions) {
        code = code.slice(0, start * 2) + hex.padStart(length * 2, '0') + code.slice((start + length) * 2)
      }
    }
  }
  return `0x${code}`
}
