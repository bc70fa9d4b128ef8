import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { type Address, type Hex, parseUnits } from 'viem'
import { BASE_ADDRESSES, DEAD_ADDRESS } from '../chain/addresses.js'
import { CACHE_DIR, PROJECT_ROOT } from '../projectRoot.js'
import { DEVNET_ADDRESSES } from './addresses.js'
import { type AnvilInstance, DEVNET_CHAIN_ID, onFreePort, startAnvil } from './anvil.js'
import { ARTIFACTS_DIR } from './artifacts.js'
import { createDeployContext } from './createDeployContext.js'
import { type AaveDeployment, deployAave } from './deploy/aave.js'
import { seedDemoPositions } from './deploy/demoPositions.js'
import { seedDemoTrades } from './deploy/demoTrades.js'
import { deployMorpho, type MorphoDeployment } from './deploy/morpho.js'
import { type CoreDeployment, type JsonValue, loadPluginModules } from './deploy/registry.js'
import { deployTokens, fundToken, type TokensDeployment, topUpEth } from './deploy/tokens.js'
import { deployUniswap, type SeededPool, seedPool, type UniswapDeployment } from './deploy/uniswap.js'
import type { DeployContext } from './deployContext.js'
import {
  demoAccounts,
  devnetPropDesk,
  devnetRelayer,
  PROP_DESK_FUNDING,
  RELAYER_FUNDING_ETH,
} from './devnetAccounts.js'

/** The devnet's sources (hashed into the cache key), also when the compiled code runs. */
const projectRoot = PROJECT_ROOT
const devnetDir = join(projectRoot, 'src/devnet')

/** Default location of the cached state: `<project>/.cache/devnet/{state,manifest}.json`. */
export const DEFAULT_DEVNET_CACHE_DIR = join(CACHE_DIR, 'devnet')

/** Reference prices for the build only; the market simulator owns prices once the devnet runs. */
export const DEFAULT_PRICES = { ethUsd: 3000, btcUsd: 60_000, utilUsd: 0.0001 } as const

/** What every demo account (#0..#9) holds after the build, besides anvil's 10,000 ETH. */
export const DEMO_FUNDING = {
  ETH: parseUnits('10000', 18),
  USDC: parseUnits('1000000', 6),
  WETH: parseUnits('100', 18),
  cbBTC: parseUnits('10', 8),
  UTIL: parseUnits('1000000000', 18),
} as const

export interface UniswapPools {
  WETH_USDC_500: SeededPool
  cbBTC_USDC_500: SeededPool
  UTIL_USDC_3000: SeededPool
}

/** Everything deployAll produced. Bigints are kept here; the manifest on disk stores them as strings. */
export interface DevnetDeployment {
  chainId: typeof DEVNET_CHAIN_ID
  deployer: Address
  demoAccounts: Address[]
  prices: { ethUsd: number; btcUsd: number; utilUsd: number }
  /** Flat address book: every contract by a stable name. */
  addresses: Record<string, Address>
  tokens: TokensDeployment
  uniswap: UniswapDeployment & { pools: UniswapPools }
  morpho: MorphoDeployment
  aave: AaveDeployment
  /** Results of plug-in modules (gtrade, midnight, stocks, aerodrome) by name. */
  modules: Record<string, { [key: string]: JsonValue }>
  skippedModules: { name: string; reason: string }[]
}

export interface DevnetManifest extends DevnetDeployment {
  cacheKey: string
  builtAt: string
}

/** A value after a JSON round trip: bigints become decimal strings. */
export type Jsonified<T> = T extends bigint
  ? string
  : T extends readonly (infer U)[]
    ? Jsonified<U>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T

/** manifest.json as read back from disk. */
export type StoredDevnetManifest = Jsonified<DevnetManifest>

export interface DeployAllOptions {
  prices?: Partial<DevnetDeployment['prices']>
}

/**
 * Deploy the whole devnet world into an empty anvil: tokens, Uniswap v3 (+ seeded pools), Morpho, Aave,
 * then the plug-in modules, then fund the demo accounts.
 */
export async function deployAll(
  ctx: DeployContext,
  options: DeployAllOptions = {},
): Promise<DevnetDeployment> {
  const prices = { ...DEFAULT_PRICES, ...options.prices }
  await topUpEth(ctx, ctx.deployer, parseUnits('1000000000', 18))

  const tokens = await deployTokens(ctx, { ethUsd: prices.ethUsd, btcUsd: prices.btcUsd })
  const uniswapCore = await deployUniswap(ctx, { WETH: tokens.WETH })
  const pools: UniswapPools = {
    WETH_USDC_500: await seedPool(ctx, {
      tokenA: tokens.WETH,
      tokenB: tokens.USDC,
      fee: 500,
      priceAUsd: prices.ethUsd,
      priceBUsd: 1,
      liquidityUsdPerSide: 20_000_000,
    }),
    cbBTC_USDC_500: await seedPool(ctx, {
      tokenA: tokens.cbBTC,
      tokenB: tokens.USDC,
      fee: 500,
      priceAUsd: prices.btcUsd,
      priceBUsd: 1,
      liquidityUsdPerSide: 10_000_000,
    }),
    UTIL_USDC_3000: await seedPool(ctx, {
      tokenA: tokens.UTIL,
      tokenB: tokens.USDC,
      fee: 3000,
      priceAUsd: prices.utilUsd,
      priceBUsd: 1,
      liquidityUsdPerSide: 200_000,
      // Top-ups are valued on its oracle's 30-minute mean (docs/credit.md): one observation per 2.5 s.
      observationCardinality: 720,
    }),
  }
  const uniswap = { ...uniswapCore, pools }
  const morpho = await deployMorpho(ctx, { ...tokens, ethUsd: prices.ethUsd, btcUsd: prices.btcUsd })
  const aave = await deployAave(ctx, tokens)

  const core: CoreDeployment = { tokens, uniswap, morpho, aave, prices }
  const { modules: plugins, skipped } = await loadPluginModules()
  const modules: DevnetDeployment['modules'] = {}
  for (const plugin of plugins) modules[plugin.name] = await plugin.deploy(ctx, core)

  for (const account of demoAccounts) {
    const balance = await ctx.publicClient.getBalance({ address: account.address })
    if (balance < DEMO_FUNDING.ETH) await topUpEth(ctx, account.address, DEMO_FUNDING.ETH - balance)
    await fundToken(ctx, tokens.USDC, account.address, DEMO_FUNDING.USDC)
    await fundToken(ctx, tokens.WETH, account.address, DEMO_FUNDING.WETH)
    await fundToken(ctx, tokens.cbBTC, account.address, DEMO_FUNDING.cbBTC)
    await fundToken(ctx, tokens.UTIL, account.address, DEMO_FUNDING.UTIL)
  }
  await topUpEth(ctx, devnetRelayer.address, RELAYER_FUNDING_ETH)
  await topUpEth(ctx, devnetPropDesk.address, PROP_DESK_FUNDING.ETH)
  await fundToken(ctx, tokens.USDC, devnetPropDesk.address, PROP_DESK_FUNDING.USDC)
  // Account #1 is the demo wallet with open positions, so every wallet read returns something.
  await seedDemoPositions(ctx, demoAccounts[1]!, { morpho, USDC: tokens.USDC, WETH: tokens.WETH })
  if (modules.gtrade !== undefined) await seedDemoTrades(ctx, demoAccounts[1]!)

  const addresses: Record<string, Address> = {
    ...BASE_ADDRESSES,
    ...DEVNET_ADDRESSES,
    UniswapV3CbBtcUsdc500Pool: pools.cbBTC_USDC_500.pool,
    UniswapV3UtilUsdc3000Pool: pools.UTIL_USDC_3000.pool,
    MetaMorphoUsdcVault: morpho.metaMorphoUsdcVault,
    AaveACLManager: aave.aclManager,
    aBascbBTC: aave.reserves.cbBTC.aToken,
    variableDebtBascbBTC: aave.reserves.cbBTC.variableDebtToken,
    DEAD: DEAD_ADDRESS,
  }
  return {
    chainId: DEVNET_CHAIN_ID,
    deployer: ctx.deployer,
    demoAccounts: demoAccounts.map((a) => a.address),
    prices,
    addresses,
    tokens,
    uniswap,
    morpho,
    aave,
    modules,
    skippedModules: skipped,
  }
}

function anvilVersion(): string {
  const require = createRequire(import.meta.url)
  const pkg = require('@foundry-rs/anvil-linux-amd64/package.json') as { version: string }
  return pkg.version
}

function filesIn(dir: string, ext: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((file) => file.endsWith(ext) && !file.endsWith('.test.ts'))
    .sort()
    .map((file) => join(dir, file))
}

/**
 * Hash of everything that shapes the devnet state: artifacts, deploy sources and the anvil version (the
 * dump format is tied to it). A changed build or deploy script gives a new key and invalidates the cache.
 */
export function devnetCacheKey(): string {
  const hash = createHash('sha256')
  hash.update(`anvil ${anvilVersion()}\n`)
  const files = [
    ...filesIn(ARTIFACTS_DIR, '.json'),
    ...filesIn(join(devnetDir, 'deploy'), '.ts'),
    ...[
      'buildState.ts',
      'createDeployContext.ts',
      'addresses.ts',
      'devnetAccounts.ts',
      'artifacts.ts',
      'anvil.ts',
    ].map((file) => join(devnetDir, file)),
    // The address book, protocol helpers and accounts the deploy code imports from the chain layer.
    ...[
      'addresses.ts',
      'anvilAccounts.ts',
      'lendingCatalog.ts',
      'morpho.ts',
      'network.ts',
      'tokenizedStocks.ts',
    ].map((file) => join(projectRoot, 'src/chain', file)),
  ]
  for (const file of files) {
    hash.update(`${file.slice(projectRoot.length)}\n`)
    hash.update(readFileSync(file))
  }
  return hash.digest('hex').slice(0, 32)
}

export interface DevnetCachePaths {
  statePath: string
  manifestPath: string
}

export function devnetCachePaths(cacheDir: string = DEFAULT_DEVNET_CACHE_DIR): DevnetCachePaths {
  return { statePath: join(cacheDir, 'state.json'), manifestPath: join(cacheDir, 'manifest.json') }
}

function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)
}

/** Write via a temp file and rename, so a concurrent reader never sees a half-written file. */
function writeAtomic(path: string, content: string): void {
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, content)
  renameSync(tmp, path)
}

/** `anvil_dumpState` answers with hex-encoded gzip; `--load-state` wants the plain JSON inside. */
async function dumpState(ctx: DeployContext): Promise<string> {
  const hex = (await ctx.testClient.request({
    method: 'anvil_dumpState' as never,
    params: [] as never,
  })) as Hex
  return gunzipSync(Buffer.from(hex.slice(2), 'hex')).toString('utf8')
}

export interface BuildDevnetStateOptions {
  cacheDir?: string
  prices?: DeployAllOptions['prices']
  /** Build into this running anvil instead of a temporary one (it must be empty). */
  rpcUrl?: string
  /**
   * A state independent of when and how fast it is built: genesis at this time (unix seconds) and every
   * block one second after the one before, so accrual, maturities and market ids come out the same on every
   * machine (the route examples' state, scripts/routeExamples.ts). The default state follows the wall clock.
   */
  genesisTimestamp?: number
}

export interface BuildDevnetStateResult extends DevnetCachePaths {
  manifest: DevnetManifest
  buildMs: number
}

/** Deploy everything into a fresh anvil and write state.json + manifest.json into `cacheDir`. */
export async function buildDevnetState(
  options: BuildDevnetStateOptions = {},
): Promise<BuildDevnetStateResult> {
  const paths = devnetCachePaths(options.cacheDir)
  const started = Date.now()
  const temporary =
    options.rpcUrl === undefined
      ? await onFreePort((port) =>
          startAnvil({
            port,
            ...(options.genesisTimestamp !== undefined ? { genesisTimestamp: options.genesisTimestamp } : {}),
          }),
        )
      : undefined
  const rpcUrl = options.rpcUrl ?? temporary!.url
  try {
    const ctx = createDeployContext({ rpcUrl })
    if (options.genesisTimestamp !== undefined)
      await ctx.testClient.setBlockTimestampInterval({ interval: 1 })
    const cacheKey = devnetCacheKey()
    const deployment = await deployAll(ctx, {
      ...(options.prices !== undefined ? { prices: options.prices } : {}),
    })
    const manifest: DevnetManifest = { ...deployment, cacheKey, builtAt: new Date().toISOString() }
    const state = await dumpState(ctx)
    mkdirSync(dirname(paths.statePath), { recursive: true })
    // State first, manifest last: a manifest with the current key promises a matching state file.
    writeAtomic(paths.statePath, state)
    writeAtomic(paths.manifestPath, toJson(manifest))
    return { ...paths, manifest, buildMs: Date.now() - started }
  } finally {
    await temporary?.stop()
  }
}

/** A lock whose owner is alive is honoured this long at most (a build takes seconds, not minutes). */
const LOCK_STALE_MS = 600_000
/** How long a process waits for another one's build before it gives up with the reason. */
const LOCK_WAIT_MS = 300_000

/** Progress lines of slow steps (building the state, waiting for another process's build). */
export type Progress = (message: string) => void

/**
 * Run `fn` while holding `<cacheDir>/build.lock` (an atomic mkdir, with the owner's pid inside). A lock
 * whose owner is no longer running is taken over at once (a build killed half-way, a test run stopped);
 * one held by a live process is waited for, with progress lines, for at most LOCK_WAIT_MS.
 */
export async function withBuildLock<T>(
  cacheDir: string,
  fn: () => Promise<T>,
  progress: Progress,
): Promise<T> {
  const lock = join(cacheDir, 'build.lock')
  const ownerFile = join(lock, 'owner')
  mkdirSync(cacheDir, { recursive: true })
  const waitStarted = Date.now()
  let lastNote = -Infinity
  for (;;) {
    try {
      mkdirSync(lock)
      writeFileSync(ownerFile, String(process.pid))
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = Number(existsSync(ownerFile) ? readFileSync(ownerFile, 'utf8') : Number.NaN)
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      // A lock without an owner file for more than a second was left by a process killed mid-mkdir.
      const dead = Number.isInteger(owner) ? !isAlive(owner) : age > 1_000
      if (dead || age > LOCK_STALE_MS) {
        rmSync(lock, { recursive: true, force: true })
        continue
      }
      const waited = Date.now() - waitStarted
      if (waited > LOCK_WAIT_MS) {
        throw new Error(
          `the devnet state in ${cacheDir} is being built by pid ${owner} for over ${LOCK_WAIT_MS / 1000} s; ` +
            `stop it or remove ${lock}`,
        )
      }
      if (waited - lastNote >= 5_000) {
        lastNote = waited
        progress(
          `waiting for pid ${owner} to finish building the devnet state (${Math.round(waited / 1000)} s)`,
        )
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  try {
    return await fn()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The cached manifest if it exists and matches the current build, else undefined. */
export function readWarmManifest(
  cacheDir: string = DEFAULT_DEVNET_CACHE_DIR,
): StoredDevnetManifest | undefined {
  const paths = devnetCachePaths(cacheDir)
  if (!existsSync(paths.manifestPath) || !existsSync(paths.statePath)) return undefined
  const manifest = JSON.parse(readFileSync(paths.manifestPath, 'utf8')) as StoredDevnetManifest
  return manifest.cacheKey === devnetCacheKey() ? manifest : undefined
}

export interface LoadDevnetOptions {
  port: number
  cacheDir?: string
  blockTimeSeconds?: number
  /** Where progress lines of slow steps go (default: stderr). */
  progress?: Progress
  /** Build a missing state with this genesis time, one second per block (see BuildDevnetStateOptions). */
  genesisTimestamp?: number
}

export interface LoadedDevnet {
  anvil: AnvilInstance
  /**
   * The manifest as stored on disk (bigints are decimal strings). The typed constants in addresses.ts give
   * the fixed addresses; the manifest adds market ids, pools, vaults, aTokens and plug-in module results.
   */
  manifest: StoredDevnetManifest
  /** True when the cached state was loaded; false when it had to be built first. */
  warm: boolean
  startMs: number
}

/**
 * The cached state, built first if it is missing or stale. Several processes (parallel test workers, a
 * second `npm start`) may find the cache cold at once: one builds, the others wait for it and then load
 * its result.
 */
export async function ensureDevnetState(
  cacheDir: string = DEFAULT_DEVNET_CACHE_DIR,
  progress: Progress = (m) => process.stderr.write(`${m}\n`),
  genesisTimestamp?: number,
): Promise<StoredDevnetManifest> {
  const warm = readWarmManifest(cacheDir)
  if (warm !== undefined) return warm
  return withBuildLock(
    cacheDir,
    async () => {
      const fresh = readWarmManifest(cacheDir)
      if (fresh !== undefined) return fresh
      progress('building the devnet state (first run after an install or a contract change: about 10 s)')
      const built = await buildDevnetState({
        cacheDir,
        ...(genesisTimestamp !== undefined ? { genesisTimestamp } : {}),
      })
      progress(`devnet state built in ${(built.buildMs / 1000).toFixed(1)} s, cached in ${cacheDir}`)
      return JSON.parse(readFileSync(devnetCachePaths(cacheDir).manifestPath, 'utf8')) as StoredDevnetManifest
    },
    progress,
  )
}

/**
 * Start the devnet on `port`: from the cached state when it is current (about 0.1 s), otherwise build it
 * first (a few seconds), cache it, and then start from the fresh cache.
 */
export async function loadDevnet(options: LoadDevnetOptions): Promise<LoadedDevnet> {
  const started = Date.now()
  const cacheDir = options.cacheDir ?? DEFAULT_DEVNET_CACHE_DIR
  const cached = readWarmManifest(cacheDir)
  const manifest = cached ?? (await ensureDevnetState(cacheDir, options.progress, options.genesisTimestamp))
  const warm = cached !== undefined
  const anvil = await startAnvil({
    port: options.port,
    loadStatePath: devnetCachePaths(cacheDir).statePath,
    ...(options.blockTimeSeconds !== undefined ? { blockTimeSeconds: options.blockTimeSeconds } : {}),
  })
  return { anvil, manifest, warm, startMs: Date.now() - started }
}
