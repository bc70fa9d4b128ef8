import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { DeployContext } from '../deployContext.js'
import type { AaveDeployment } from './aave.js'
import type { MorphoDeployment } from './morpho.js'
import type { TokensDeployment } from './tokens.js'
import type { UniswapDeployment } from './uniswap.js'

/** What the core modules deployed; handed to every plug-in module. */
export interface CoreDeployment {
  tokens: TokensDeployment
  uniswap: UniswapDeployment
  morpho: MorphoDeployment
  aave: AaveDeployment
  /** The reference USD prices the build used (the simulator owns prices afterwards). */
  prices: { ethUsd: number; btcUsd: number; utilUsd: number }
}

/** A JSON-safe value (bigints must be converted to strings before returning). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/**
 * A deploy module that plugs into buildDevnetState after the core protocols. Its result lands in the
 * manifest under `modules.<name>`.
 */
export interface DevnetModule {
  name: string
  deploy(ctx: DeployContext, core: CoreDeployment): Promise<{ [key: string]: JsonValue }>
}

/**
 * Plug-in modules, in deploy order. Each is a file src/devnet/deploy/<name>.ts that exports
 * `export const devnetModule: DevnetModule`. Files that do not exist yet are reported as missing.
 */
export const PLUGIN_MODULE_NAMES = [
  'gtrade',
  'midnight',
  'midnightMakers',
  'stocks',
  'aerodrome',
  'zeroEx',
  'batchSettlement',
] as const

export interface LoadedModules {
  modules: DevnetModule[]
  /** Why a listed module was not loaded (file absent, or no `devnetModule` export). */
  skipped: { name: string; reason: string }[]
}

const deployDir = dirname(fileURLToPath(import.meta.url))

export async function loadPluginModules(): Promise<LoadedModules> {
  const modules: DevnetModule[] = []
  const skipped: LoadedModules['skipped'] = []
  for (const name of PLUGIN_MODULE_NAMES) {
    const file = ['.ts', '.js']
      .map((ext) => join(deployDir, `${name}${ext}`))
      .find((path) => existsSync(path))
    if (file === undefined) {
      skipped.push({ name, reason: 'file not present' })
      continue
    }
    // A file URL keeps bundlers (vitest) from trying to resolve the specifier at build time.
    const imported = (await import(pathToFileURL(file).href)) as { devnetModule?: DevnetModule }
    if (imported.devnetModule === undefined || typeof imported.devnetModule.deploy !== 'function') {
      skipped.push({ name, reason: `${file} has no \`export const devnetModule: DevnetModule\`` })
      continue
    }
    modules.push(imported.devnetModule)
  }
  return { modules, skipped }
}
