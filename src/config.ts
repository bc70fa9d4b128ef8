import { z } from 'zod'
import type { LogLevel } from './logger.js'

/**
 * One typed config, read from the environment once at start. The two profiles differ only in defaults
 * (URLs and addresses), never in code paths: `devnet` (default) points everything at the local world,
 * `base` at Base mainnet and the real upstreams.
 */
export type Profile = 'devnet' | 'base'

export interface Config {
  profile: Profile
  host: string
  port: number
  /** Absolute URL agents use to reach this service; discovery documents are written against it. */
  publicUrl: string
  logLevel: LogLevel
  /** Largest request body accepted, in bytes. */
  bodyLimitBytes: number
  /** How long in-flight requests get to finish after SIGTERM. */
  shutdownGraceMs: number
  /** Where x402 payments are sent. */
  payTo: `0x${string}`
  /** JSON-RPC endpoint of the chain (Base, or the devnet's anvil). */
  rpcUrl: string
  /** Base URLs of the upstream APIs, no trailing slash. */
  upstreams: Upstreams
  /** The embedded world started by `npm start` on the devnet profile. */
  devnet: DevnetOptions
}

export interface Upstreams {
  coinbaseExchange: string
  pythHermes: string
  pythBenchmarks: string
  gtradeBackend: string
  /** gTrade's trade-history host (backend-global on Base). */
  gtradeHistory: string
  /** Blockscout-v2-style explorer API for token balances. */
  explorer: string
}

export interface DevnetOptions {
  rpcPort: number
  /** 0 = automine; 2 reproduces Base's block time. */
  blockTimeSeconds: number
  /** Seed of the market simulator's price paths. */
  seed: number
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError'
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  }
}

/** Anvil's standard-mnemonic account #9: receives devnet payments, so it is never a demo payer. */
const DEVNET_PAY_TO = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'

const address = z.string().regex(/^0x[a-fA-F0-9]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
const port = z.coerce.number().int().min(1).max(65535)

const envSchema = z.object({
  PROFILE: z.enum(['devnet', 'base']).default('devnet'),
  HOST: z.string().min(1).optional(),
  PORT: port.default(8402),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(65_536),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  PAY_TO: address.optional(),
  RPC_URL: z.url().optional(),
  COINBASE_URL: z.url().optional(),
  PYTH_HERMES_URL: z.url().optional(),
  PYTH_BENCHMARKS_URL: z.url().optional(),
  GTRADE_BACKEND_URL: z.url().optional(),
  GTRADE_HISTORY_URL: z.url().optional(),
  EXPLORER_URL: z.url().optional(),
  DEVNET_RPC_PORT: port.default(8545),
  DEVNET_UPSTREAM_PORT: port.max(65530).default(8550),
  DEVNET_BLOCK_TIME: z.coerce.number().int().min(0).max(60).default(0),
  DEVNET_SEED: z.coerce.number().int().min(0).default(8453),
})

/** Real upstreams, used by the base profile unless overridden. */
const BASE_UPSTREAMS: Upstreams = {
  coinbaseExchange: 'https://api.exchange.coinbase.com',
  pythHermes: 'https://hermes.pyth.network',
  pythBenchmarks: 'https://benchmarks.pyth.network',
  gtradeBackend: 'https://backend-base.gains.trade',
  gtradeHistory: 'https://backend-global.gains.trade',
  explorer: 'https://base.blockscout.com',
}

/** The devnet world serves each upstream simulator on its own loopback port, from DEVNET_UPSTREAM_PORT up. */
function devnetUpstreams(firstPort: number): Upstreams {
  const at = (offset: number) => `http://127.0.0.1:${firstPort + offset}`
  return {
    coinbaseExchange: at(0),
    pythHermes: at(1),
    pythBenchmarks: at(2),
    gtradeBackend: at(3),
    gtradeHistory: at(3),
    explorer: at(4),
  }
}

/** Documentation of every variable, rendered into the README table by hand-check in a test. */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape)

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "unset": shells and compose files often export VAR= to clear a value.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = envSchema.safeParse(present)
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`))
  }
  const e = parsed.data
  const problems: string[] = []
  const payTo = e.PAY_TO ?? (e.PROFILE === 'devnet' ? DEVNET_PAY_TO : undefined)
  if (payTo === undefined) problems.push('PAY_TO: required with PROFILE=base (the wallet that receives USDC)')
  if (problems.length > 0) throw new ConfigError(problems)
  const devnet = e.PROFILE === 'devnet'
  const defaults = devnet ? devnetUpstreams(e.DEVNET_UPSTREAM_PORT) : BASE_UPSTREAMS
  const host = e.HOST ?? (e.PROFILE === 'devnet' ? '127.0.0.1' : '0.0.0.0')
  return {
    profile: e.PROFILE,
    host,
    port: e.PORT,
    publicUrl: trim(e.PUBLIC_URL ?? `http://127.0.0.1:${e.PORT}`),
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    payTo: payTo as `0x${string}`,
    rpcUrl: trim(
      e.RPC_URL ?? (devnet ? `http://127.0.0.1:${e.DEVNET_RPC_PORT}` : 'https://mainnet.base.org'),
    ),
    upstreams: {
      coinbaseExchange: trim(e.COINBASE_URL ?? defaults.coinbaseExchange),
      pythHermes: trim(e.PYTH_HERMES_URL ?? defaults.pythHermes),
      pythBenchmarks: trim(e.PYTH_BENCHMARKS_URL ?? defaults.pythBenchmarks),
      gtradeBackend: trim(e.GTRADE_BACKEND_URL ?? defaults.gtradeBackend),
      gtradeHistory: trim(e.GTRADE_HISTORY_URL ?? defaults.gtradeHistory),
      explorer: trim(e.EXPLORER_URL ?? defaults.explorer),
    },
    devnet: { rpcPort: e.DEVNET_RPC_PORT, blockTimeSeconds: e.DEVNET_BLOCK_TIME, seed: e.DEVNET_SEED },
  }
}

function trim(url: string): string {
  return url.replace(/\/+$/, '')
}
