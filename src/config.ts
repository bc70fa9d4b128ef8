import { z } from 'zod'
import { DEVNET_UTIL_TOKEN } from './chain/addresses.js'
import { ANVIL_ROLES, anvilAccount } from './chain/anvilAccounts.js'
import { BASE_LENDING_CATALOG, DEVNET_LENDING_CATALOG, type LendingCatalog } from './chain/lendingCatalog.js'
import { USDC } from './chain/network.js'
import { uniswapV3PoolAddress } from './chain/uniswapV3Pool.js'
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
  /** How often /ready re-runs the preflight of the address book while it passes (seconds; 0: every /ready). */
  preflightIntervalSeconds: number
  /** Where x402 payments are sent. */
  payTo: `0x${string}`
  /** JSON-RPC endpoint of the chain (Base, or the devnet's anvil). */
  rpcUrl: string
  /**
   * Most JSON-RPC requests per HTTP batch: the reads sent in one tick go out together (one round trip).
   * 20 is within every common provider's cap; 0 sends each request on its own (a provider that refuses
   * batches).
   */
  rpcBatchSize: number
  /** The widest block range of one `eth_getLogs` request (wider queries go out in windows). */
  rpcLogsMaxBlocks: number
  /** Bounds on every outbound read (upstream APIs and the RPC) and the circuit breakers in front of them. */
  outbound: OutboundOptions
  /** Base URLs of the upstream APIs, no trailing slash. */
  upstreams: Upstreams
  /** The embedded world started by `npm start` on the devnet profile. */
  devnet: DevnetOptions
  payments: PaymentOptions
  /**
   * ERC-8021 builder codes (Base Builder Codes, e.g. `bc_a1b2c3d4`), first = this service's app code.
   * x402 settlements carry it (schema 2, `a`; the rest as service codes `s`); builder steps will carry
   * all of them (schema 0). Empty: nothing is attributed.
   */
  builderCodes: string[]
  /** The UTIL token (18 decimals): what the burn builder and the credit rail move. Null: not deployed here. */
  utilToken: `0x${string}` | null
  /** The prop desk (src/prop/): its own key and capital, never the relayer's. */
  prop: PropOptions
  /** The operator's token for `/ops` and `/metrics`; undefined: both are off (404). */
  opsToken: string | undefined
  storage: StorageOptions
  rateLimits: RateLimitOptions
  /** Vaults, Aave reserves and Morpho markets the earn and loan reads list (address book data per profile). */
  lending: LendingCatalog
}

export interface OutboundOptions {
  /** Most time one upstream API request may take (to the end of its body) before it counts as no answer. */
  upstreamTimeoutMs: number
  /** Most time one JSON-RPC request of the read client may take; viem retries it once. */
  rpcTimeoutMs: number
  /** Consecutive outages (no answer, 5xx, unreadable body) of one upstream, or of the RPC, that open its circuit. */
  breakerFailures: number
  /** How long an open circuit answers for its upstream (fast 502, Retry-After) before probing it again. */
  breakerCoolDownMs: number
}

export interface BatchOptions {
  /** How often vouchers are claimed (in batches of `maxClaimsPerBatch`, one transaction each) and swept to payTo. */
  claimIntervalMs: number
  maxClaimsPerBatch: number
  /**
   * The most gas one deposit, claim, sweep or refund transaction may use (built-in facilitator): a claim
   * carries up to `maxClaimsPerBatch` vouchers, far more than one `exact` settlement.
   */
  gasLimit: bigint
  /** The channel's withdraw delay the server asks for (seconds, 900 to 30 days): the payer's escape hatch. */
  withdrawDelaySeconds: number
}

export interface PropOptions {
  /** The desk's key: it signs the desk's trades with the desk's capital. Unset: the desk answers 503. */
  deskPrivateKey: `0x${string}` | undefined
  /** Where agents send UTIL for a desk action (payTxHash); undefined: the desk's own address. */
  deskRecipient: `0x${string}` | undefined
  /** One desk action per member per this many seconds. */
  cooldownSeconds: number
  /** Where the burn and send history of a member is read from (the UTIL token's first block). */
  logsFromBlock: bigint
  /** The most collateral (USDC) the desk holds open across all members' positions at once. */
  deskMaxOpenUsdc: number
}

export interface PaymentOptions {
  /** Where UTIL is sent to buy prepaid credit (the challenge's `utilCredit.recipient`). */
  creditRecipient: `0x${string}`
  /**
   * The Uniswap v3 UTIL/USDC pool that values a top-up at its block. Null: no UTIL here, no credit rail
   * (a top-up is refused `topup_unavailable`).
   */
  creditPool: `0x${string}` | null
  /** Built-in facilitator: the key that submits `transferWithAuthorization` and pays its gas. */
  relayerPrivateKey: `0x${string}` | undefined
  /** Remote facilitator (standard /verify, /settle, /supported API); when set, it replaces the built-in one. */
  facilitatorUrl: string | undefined
  /** Extra headers sent to the remote facilitator (e.g. Authorization). */
  facilitatorHeaders: Record<string, string>
  /** Bounded wait for a settlement's inclusion; past it the row stays pending and is reconciled later. */
  settleTimeoutMs: number
  /**
   * The most gas one settlement may use (built-in facilitator): every verification call is capped at it
   * and a settlement whose estimate exceeds it is refused before broadcast. A payer's code (an ERC-1271
   * wallet, an EIP-7702 delegation) decides what its `transferWithAuthorization` costs.
   */
  settlementGasLimit: bigint
  /** How long a payer whose settlement reverted onchain is refused (its calls count as unpaid traffic). */
  payerCooldownMs: number
  /** x402 `batch-settlement`: the voucher claims, sweeps and refunds of the channel manager. */
  batch: BatchOptions
  /**
   * How many settlements of payers with code (smart wallets, EIP-7702 EOAs) may revert within one
   * cool-down window before every payer with code is refused until the window ends.
   */
  codePayerRevertBudget: number
  /** How often receipts are polled while waiting for inclusion. */
  pollingIntervalMs: number
  /** How often pending settlements are reconciled from the chain. */
  reconcileIntervalMs: number
  /** HMAC key that signs quotes; instances behind one load balancer must share it. */
  quoteSecret: string | undefined
  /** Priced requests per second at which surge reaches its 2x cap (it starts at half of this). */
  surgeCapacityRps: number
}

export interface StorageOptions {
  /** PGlite data directory (`memory://` keeps it in memory); ignored when databaseUrl is set. */
  dataDir: string
  databaseUrl: string | undefined
  redisUrl: string | undefined
}

export interface RateLimitOptions {
  /** Requests per window for callers without a payment header, keyed by client address. */
  unpaid: number
  /** Requests per window for paying callers, keyed by the paying wallet. */
  paid: number
  windowSeconds: number
  /**
   * How many proxies of yours stand in front of the service (0: none, trust no header). The client
   * address is the X-Forwarded-For entry that the outermost of them appended: the `trustProxy`-th from
   * the right. Entries further left were written by the client and are never trusted.
   */
  trustProxy: number
}

export interface Upstreams {
  coinbaseExchange: string
  /**
   * Requests per second the service sends the exchange at most (a sliding window): its public limit is a
   * bucket of 10 per second per IP with bursts to 15, which the devnet's simulator enforces. 0 = no limit.
   */
  coinbaseMaxRps: number
  /** Requests Hermes is sent in any 10 s at most (Pyth's documented limit: 10 per 10 s per IP). 0 = none. */
  pythMaxPer10s: number
  /** Requests Benchmarks' TradingView shim is sent in any 10 s at most (documented: 90). 0 = none. */
  pythTradingViewMaxPer10s: number
  /** Requests per second to the 0x Swap API at most (its free tier: 5, in 1-second windows). 0 = none. */
  zeroExMaxRps: number
  /** Requests per second to the explorer at most (Blockscout PRO's free tier: 5). 0 = none. */
  explorerMaxRps: number
  /**
   * The explorer's API key: Blockscout's PRO API requires one (`Authorization: Bearer`; an instance's own
   * API reads `x-api-key`, sent too). The devnet's explorer simulator demands its own, set by default.
   */
  explorerApiKey: string | undefined
  pythHermes: string
  pythBenchmarks: string
  gtradeBackend: string
  /** gTrade's trade-history host (backend-global on Base). */
  gtradeHistory: string
  /** Blockscout-v2-style explorer API for token balances. */
  explorer: string
  /** 0x Swap API v2 (allowance-holder `price` and `quote`); used only when `zeroExApiKey` is set. */
  zeroEx: string
  /** The 0x API key (`0x-api-key` header); unset: swap prices come straight from the DEX contracts. */
  zeroExApiKey: string | undefined
  /** Morpho's API (Midnight fixed-rate books at `/v0/midnight/…`). */
  morphoApi: string
  /**
   * The Pyth API key Hermes requires since Pyth's Core upgrade (sent as `Authorization: Bearer`; Hermes
   * answers 401 without one). The devnet's Hermes simulator demands its own key, set by default.
   */
  pythApiKey: string | undefined
}

export interface DevnetOptions {
  rpcPort: number
  /** Seconds between blocks: 0.2 (the default) is Base since Denim; 0 = automine. */
  blockTimeSeconds: number
  /** Seed of the market simulator's price paths. */
  seed: number
  /**
   * `embedded`: `npm start` runs the world in its own process; `external`: the world runs in another process
   * (scripts/devnetWorld.ts) on the same ports, so each process's memory and CPU are its own (the soak).
   */
  world: 'embedded' | 'external'
  /**
   * The date whose market the world's simulator plays (`YYYY-MM-DD`, UTC), at the wall clock's time of
   * day; null = today's. Only the price path moves: block, upstream and payment timestamps stay the wall
   * clock's, so payments still settle (docs/testing.md#the-suite-at-another-date).
   */
  marketDate: string | null
  /**
   * `documented`: each upstream simulator answers 429 past its upstream's documented rate limit (and
   * demands its key); `off`: no 429s (the shared test worlds, whose tests also read the simulators
   * directly to recompute answers; the limits are tested in test/upstreams/).
   */
  upstreamLimits: 'documented' | 'off'
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError'
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  }
}

/** How many consecutive ports the devnet's upstream simulators take from DEVNET_UPSTREAM_PORT. */
export const UPSTREAM_PORT_COUNT = 7

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
  PREFLIGHT_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  PAY_TO: address.optional(),
  RPC_URL: z.url().optional(),
  RPC_BATCH_SIZE: z.coerce.number().int().min(0).max(1000).default(20),
  RPC_LOGS_MAX_BLOCKS: z.coerce.number().int().min(1).max(1_000_000).default(2_000),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8_000),
  RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  BREAKER_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  BREAKER_COOLDOWN_SECONDS: z.coerce.number().min(0.1).max(3600).default(15),
  COINBASE_URL: z.url().optional(),
  COINBASE_MAX_RPS: z.coerce.number().min(0).max(1000).default(10),
  PYTH_MAX_REQUESTS_PER_10S: z.coerce.number().int().min(0).max(100_000).default(10),
  PYTH_TRADINGVIEW_MAX_REQUESTS_PER_10S: z.coerce.number().int().min(0).max(100_000).default(90),
  ZEROX_MAX_RPS: z.coerce.number().int().min(0).max(10_000).default(5),
  EXPLORER_MAX_RPS: z.coerce.number().int().min(0).max(10_000).default(5),
  EXPLORER_API_KEY: z.string().min(1).optional(),
  PYTH_HERMES_URL: z.url().optional(),
  PYTH_BENCHMARKS_URL: z.url().optional(),
  GTRADE_BACKEND_URL: z.url().optional(),
  GTRADE_HISTORY_URL: z.url().optional(),
  EXPLORER_URL: z.url().optional(),
  ZEROX_API_URL: z.url().optional(),
  ZEROX_API_KEY: z.string().min(1).optional(),
  PYTH_API_KEY: z.string().min(1).optional(),
  MORPHO_API_URL: z.url().optional(),
  DEVNET_RPC_PORT: port.default(8545),
  DEVNET_UPSTREAM_PORT: port.max(65535 - UPSTREAM_PORT_COUNT + 1).default(8550),
  DEVNET_BLOCK_TIME: z.coerce.number().min(0).max(60).default(0.2),
  DEVNET_SEED: z.coerce.number().int().min(0).default(8453),
  DEVNET_WORLD: z.enum(['embedded', 'external']).default('embedded'),
  DEVNET_UPSTREAM_LIMITS: z.enum(['documented', 'off']).default('documented'),
  DEVNET_DATE: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD')
    .refine((d) => {
      const ms = Date.parse(`${d}T00:00:00Z`)
      return Number.isFinite(ms) && new Date(ms).toISOString().startsWith(d)
    }, 'must be a calendar date')
    .refine(
      (d) => Date.parse(`${d}T00:00:00Z`) >= Date.UTC(2016, 0, 1),
      'must be 2016-01-01 or later (the simulated history starts in 2015)',
    )
    .optional(),
  UTIL_CREDIT_RECIPIENT: address.optional(),
  UTIL_USDC_POOL: address.optional(),
  PROP_DESK_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex private key')
    .optional(),
  PROP_DESK_RECIPIENT: address.optional(),
  PROP_COOLDOWN_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  PROP_LOGS_FROM_BLOCK: z.coerce.number().int().min(0).default(0),
  PROP_DESK_MAX_OPEN_USDC: z.coerce.number().int().min(0).default(10_000),
  OPS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  RELAYER_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex private key')
    .optional(),
  FACILITATOR_URL: z.url().optional(),
  FACILITATOR_HEADERS: z.string().optional(),
  SETTLE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(20_000),
  SETTLEMENT_GAS_LIMIT: z.coerce.number().int().min(60_000).max(2_000_000).default(150_000),
  BATCH_CLAIM_INTERVAL_SECONDS: z.coerce.number().min(0.05).max(86_400).default(60),
  BATCH_MAX_CLAIMS: z.coerce.number().int().min(1).max(500).default(50),
  BATCH_GAS_LIMIT: z.coerce.number().int().min(200_000).max(15_000_000).default(3_000_000),
  BATCH_WITHDRAW_DELAY_SECONDS: z.coerce.number().int().min(900).max(2_592_000).default(900),
  PAYER_COOLDOWN_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  CODE_PAYER_REVERT_BUDGET: z.coerce.number().int().min(1).max(10_000).default(5),
  CHAIN_POLLING_MS: z.coerce.number().int().min(10).max(10_000).optional(),
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(1000).default(30_000),
  QUOTE_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  SURGE_CAPACITY_RPS: z.coerce.number().positive().default(200),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  RATE_LIMIT_UNPAID: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_PAID: z.coerce.number().int().min(1).default(1200),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  BUILDER_CODES: z
    .string()
    .regex(
      /^[a-z0-9_]{1,32}(,[a-z0-9_]{1,32}){0,5}$/,
      'must be 1 to 6 comma-separated builder codes of 1-32 lowercase letters, digits or underscores (e.g. bc_a1b2c3d4)',
    )
    .optional(),
  UTIL_TOKEN: address.optional(),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|[0-9])$/, 'must be false, true (one proxy) or the number of proxies in front (0-9)')
    .default('false'),
})

/** Not a registered code: it only makes attribution visible on the devnet. */
export const DEVNET_BUILDER_CODE = 'bc_agentdesk_devnet'
/** The key the devnet's Pyth simulators demand (and the devnet profile sends) unless PYTH_API_KEY is set. */
export const DEVNET_PYTH_API_KEY = 'devnet-pyth-api-key'
/** The key the devnet's explorer simulator demands (and the devnet profile sends) unless EXPLORER_API_KEY is set. */
export const DEVNET_EXPLORER_API_KEY = 'devnet-explorer-api-key'

/** Real upstreams, used by the base profile unless overridden. */
type UpstreamUrls = Omit<
  Upstreams,
  | 'zeroExApiKey'
  | 'pythApiKey'
  | 'explorerApiKey'
  | 'coinbaseMaxRps'
  | 'pythMaxPer10s'
  | 'pythTradingViewMaxPer10s'
  | 'zeroExMaxRps'
  | 'explorerMaxRps'
>

const BASE_UPSTREAMS: UpstreamUrls = {
  coinbaseExchange: 'https://api.exchange.coinbase.com',
  pythHermes: 'https://hermes.pyth.network',
  pythBenchmarks: 'https://benchmarks.pyth.network',
  gtradeBackend: 'https://backend-base.gains.trade',
  gtradeHistory: 'https://backend-global.gains.trade',
  // Blockscout's PRO API for Base (chain 8453): per-instance APIs are being retired in its favour.
  explorer: 'https://api.blockscout.com/8453',
  zeroEx: 'https://api.0x.org',
  morphoApi: 'https://api.morpho.org',
}

/** The devnet world serves each upstream simulator on its own loopback port, from DEVNET_UPSTREAM_PORT up. */
function devnetUpstreams(firstPort: number): UpstreamUrls {
  const at = (offset: number) => `http://127.0.0.1:${firstPort + offset}`
  return {
    coinbaseExchange: at(0),
    pythHermes: at(1),
    pythBenchmarks: at(2),
    gtradeBackend: at(3),
    gtradeHistory: at(3),
    explorer: `${at(4)}/8453`,
    zeroEx: at(5),
    morphoApi: at(6),
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
  // The devnet profile's payee and relayer are well-known accounts of anvil's public mnemonic.
  const payTo = e.PAY_TO ?? (e.PROFILE === 'devnet' ? anvilAccount(ANVIL_ROLES.payee).address : undefined)
  if (payTo === undefined) problems.push('PAY_TO: required with PROFILE=base (the wallet that receives USDC)')
  const relayerPrivateKey =
    e.RELAYER_PRIVATE_KEY ??
    (e.PROFILE === 'devnet' ? anvilAccount(ANVIL_ROLES.relayer).privateKey : undefined)
  if (relayerPrivateKey === undefined && e.FACILITATOR_URL === undefined) {
    problems.push('RELAYER_PRIVATE_KEY: required with PROFILE=base unless FACILITATOR_URL is set')
  }
  const facilitatorHeaders = parseHeaders(e.FACILITATOR_HEADERS, problems)
  // A voucher is served on channel state up to a third of the withdraw delay old (@x402/evm's default); a
  // withdrawal begun just after that read pays out what is unclaimed one delay later. Rounds must come first.
  if (e.BATCH_CLAIM_INTERVAL_SECONDS > (e.BATCH_WITHDRAW_DELAY_SECONDS * 2) / 3) {
    const most = (e.BATCH_WITHDRAW_DELAY_SECONDS * 2) / 3
    problems.push(
      `BATCH_CLAIM_INTERVAL_SECONDS: must be at most two thirds of BATCH_WITHDRAW_DELAY_SECONDS (${most} s), ` +
        "or a payer's withdrawal can pay out served vouchers before they are claimed",
    )
  }
  if (problems.length > 0) throw new ConfigError(problems)
  const devnet = e.PROFILE === 'devnet'
  const host = e.HOST ?? (e.PROFILE === 'devnet' ? '127.0.0.1' : '0.0.0.0')
  const utilToken = (e.UTIL_TOKEN ?? (devnet ? DEVNET_UTIL_TOKEN : null)) as `0x${string}` | null
  return {
    profile: e.PROFILE,
    host,
    port: e.PORT,
    publicUrl: trim(e.PUBLIC_URL ?? `http://127.0.0.1:${e.PORT}`),
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    preflightIntervalSeconds: e.PREFLIGHT_INTERVAL_SECONDS,
    payTo: payTo as `0x${string}`,
    rpcUrl: trim(
      e.RPC_URL ?? (devnet ? `http://127.0.0.1:${e.DEVNET_RPC_PORT}` : 'https://mainnet.base.org'),
    ),
    rpcBatchSize: e.RPC_BATCH_SIZE,
    rpcLogsMaxBlocks: e.RPC_LOGS_MAX_BLOCKS,
    outbound: {
      upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
      rpcTimeoutMs: e.RPC_TIMEOUT_MS,
      breakerFailures: e.BREAKER_FAILURES,
      breakerCoolDownMs: Math.round(e.BREAKER_COOLDOWN_SECONDS * 1000),
    },
    upstreams: upstreamsOf(e),
    devnet: {
      rpcPort: e.DEVNET_RPC_PORT,
      blockTimeSeconds: e.DEVNET_BLOCK_TIME,
      seed: e.DEVNET_SEED,
      world: e.DEVNET_WORLD,
      upstreamLimits: e.DEVNET_UPSTREAM_LIMITS,
      marketDate: e.DEVNET_DATE ?? null,
    },
    payments: {
      creditRecipient: (e.UTIL_CREDIT_RECIPIENT ?? payTo) as `0x${string}`,
      creditPool: (e.UTIL_USDC_POOL ??
        (utilToken === null ? null : uniswapV3PoolAddress(utilToken, USDC, 3000))) as `0x${string}` | null,
      relayerPrivateKey: relayerPrivateKey as `0x${string}` | undefined,
      facilitatorUrl: e.FACILITATOR_URL === undefined ? undefined : trim(e.FACILITATOR_URL),
      facilitatorHeaders,
      settleTimeoutMs: e.SETTLE_TIMEOUT_MS,
      settlementGasLimit: BigInt(e.SETTLEMENT_GAS_LIMIT),
      payerCooldownMs: e.PAYER_COOLDOWN_SECONDS * 1000,
      batch: {
        claimIntervalMs: Math.round(e.BATCH_CLAIM_INTERVAL_SECONDS * 1000),
        maxClaimsPerBatch: e.BATCH_MAX_CLAIMS,
        gasLimit: BigInt(e.BATCH_GAS_LIMIT),
        withdrawDelaySeconds: e.BATCH_WITHDRAW_DELAY_SECONDS,
      },
      codePayerRevertBudget: e.CODE_PAYER_REVERT_BUDGET,
      // Base makes a block every 200 ms (since Denim, 2026-11-05): a receipt is looked for twice a block (the
      // fallback when the node has no eth_sendRawTransactionSync); the devnet answers at once.
      pollingIntervalMs: e.CHAIN_POLLING_MS ?? (devnet ? 25 : 100),
      reconcileIntervalMs: e.RECONCILE_INTERVAL_MS,
      quoteSecret: e.QUOTE_SECRET,
      surgeCapacityRps: e.SURGE_CAPACITY_RPS,
    },
    // The devnet attributes to a placeholder code so the path runs end to end; production sets its own.
    builderCodes: (e.BUILDER_CODES ?? (devnet ? DEVNET_BUILDER_CODE : '')).split(',').filter((c) => c !== ''),
    utilToken,
    opsToken: e.OPS_TOKEN,
    prop: {
      deskPrivateKey: (e.PROP_DESK_PRIVATE_KEY ??
        (devnet ? anvilAccount(ANVIL_ROLES.propDesk).privateKey : undefined)) as `0x${string}` | undefined,
      deskRecipient: e.PROP_DESK_RECIPIENT as `0x${string}` | undefined,
      cooldownSeconds: e.PROP_COOLDOWN_SECONDS,
      logsFromBlock: BigInt(e.PROP_LOGS_FROM_BLOCK),
      deskMaxOpenUsdc: e.PROP_DESK_MAX_OPEN_USDC,
    },
    storage: { dataDir: e.DATA_DIR, databaseUrl: e.DATABASE_URL, redisUrl: e.REDIS_URL },
    // Base's vaults and markets; the devnet's own (Aave and Morpho at their Base addresses, plus the vaults
    // and markets only the devnet world has).
    lending: devnet ? DEVNET_LENDING_CATALOG : BASE_LENDING_CATALOG,
    rateLimits: {
      unpaid: e.RATE_LIMIT_UNPAID,
      paid: e.RATE_LIMIT_PAID,
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      trustProxy: e.TRUST_PROXY === 'true' ? 1 : e.TRUST_PROXY === 'false' ? 0 : Number(e.TRUST_PROXY),
    },
  }
}

/** Where the upstream APIs are, their keys and their client-side limits (the devnet's simulators by default). */
function upstreamsOf(e: z.infer<typeof envSchema>): Config['upstreams'] {
  const devnet = e.PROFILE === 'devnet'
  const defaults = devnet ? devnetUpstreams(e.DEVNET_UPSTREAM_PORT) : BASE_UPSTREAMS
  return {
    coinbaseExchange: trim(e.COINBASE_URL ?? defaults.coinbaseExchange),
    // The devnet's simulators enforce the upstreams' documented limits: the same defaults hold there.
    coinbaseMaxRps: e.COINBASE_MAX_RPS,
    pythMaxPer10s: e.PYTH_MAX_REQUESTS_PER_10S,
    pythTradingViewMaxPer10s: e.PYTH_TRADINGVIEW_MAX_REQUESTS_PER_10S,
    zeroExMaxRps: e.ZEROX_MAX_RPS,
    explorerMaxRps: e.EXPLORER_MAX_RPS,
    explorerApiKey: e.EXPLORER_API_KEY ?? (devnet ? DEVNET_EXPLORER_API_KEY : undefined),
    pythHermes: trim(e.PYTH_HERMES_URL ?? defaults.pythHermes),
    pythBenchmarks: trim(e.PYTH_BENCHMARKS_URL ?? defaults.pythBenchmarks),
    gtradeBackend: trim(e.GTRADE_BACKEND_URL ?? defaults.gtradeBackend),
    gtradeHistory: trim(e.GTRADE_HISTORY_URL ?? defaults.gtradeHistory),
    explorer: trim(e.EXPLORER_URL ?? defaults.explorer),
    zeroEx: trim(e.ZEROX_API_URL ?? defaults.zeroEx),
    zeroExApiKey: e.ZEROX_API_KEY,
    morphoApi: trim(e.MORPHO_API_URL ?? defaults.morphoApi),
    pythApiKey: e.PYTH_API_KEY ?? (devnet ? DEVNET_PYTH_API_KEY : undefined),
  }
}

/**
 * The upstream keys this configuration lacks where the upstream refuses calls without one (Pyth Hermes
 * since Pyth's Core upgrade: every price, idea and oracle candle read); undefined when none is missing.
 * The devnet sets its simulators' own keys.
 */
export function missingUpstreamKeys(config: Pick<Config, 'upstreams'>): string | undefined {
  const missing: string[] = []
  if (config.upstreams.pythApiKey === undefined)
    missing.push(
      'PYTH_API_KEY is not set: Pyth Hermes and Benchmarks answer 401 without a Pyth API key (prices, ideas, candles)',
    )
  if (config.upstreams.explorerApiKey === undefined)
    missing.push(
      'EXPLORER_API_KEY is not set: Blockscout’s PRO API answers 401 without a key (portfolio token discovery)',
    )
  return missing.length === 0 ? undefined : missing.join('; ')
}

/** FACILITATOR_HEADERS is a JSON object of string values, e.g. {"Authorization":"Bearer …"}. */
function parseHeaders(raw: string | undefined, problems: string[]): Record<string, string> {
  if (raw === undefined) return {}
  try {
    const value: unknown = JSON.parse(raw)
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const entries = Object.entries(value)
      if (entries.every(([, v]) => typeof v === 'string'))
        return Object.fromEntries(entries) as Record<string, string>
    }
  } catch {
    // fall through to the problem below
  }
  problems.push('FACILITATOR_HEADERS: must be a JSON object of string values')
  return {}
}

function trim(url: string): string {
  return url.replace(/\/+$/, '')
}
