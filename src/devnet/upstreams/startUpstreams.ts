import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import type { Hono } from 'hono'
import { PortTakenError } from '../anvil.js'
import type { MarketSimulator, SimClock } from '../simulator/marketSimulator.js'
import { createBlockscoutApp } from './blockscoutApp.js'
import { createCoinbaseExchangeApp } from './coinbaseExchangeApp.js'
import { createGtradeBackendApp } from './gtradeBackendApp.js'
import type { GtradeTradeSource } from './gtradeTradeSource.js'
import type { MidnightBookSource } from './midnightBookSource.js'
import { createMorphoApiApp } from './morphoApiApp.js'
import { createPythBenchmarksApp } from './pythBenchmarksApp.js'
import { createPythHermesApp } from './pythHermesApp.js'
import { NO_SWAP_LIQUIDITY, type SwapLiquiditySource } from './swapLiquiditySource.js'
import type { TokenBalanceSource } from './tokenBalanceSource.js'
import { NO_RATE_LIMIT } from './upstreamGuards.js'
import { createZeroExApp } from './zeroExApp.js'

export type UpstreamName =
  | 'coinbaseExchange'
  | 'pythHermes'
  | 'pythBenchmarks'
  | 'gtradeBackend'
  | 'blockscout'
  | 'morphoApi'
  | 'zeroEx'

export interface StartUpstreamsOptions {
  sim: MarketSimulator
  gtradeTrades: GtradeTradeSource
  tokenBalances: TokenBalanceSource
  /** Midnight markets and offers for the Morpho API simulator; default: none. */
  midnightBooks?: MidnightBookSource
  /** The pools the 0x simulator prices from; default: none (every pair answers no liquidity). */
  swapLiquidity?: SwapLiquiditySource
  clock?: SimClock
  /** Fixed ports per upstream; any not given (or 0) gets a free port. */
  ports?: Partial<Record<UpstreamName, number>>
  /** For gTrade's currentBlock; defaults to a clock-derived Base block number. */
  currentBlock?: () => Promise<number>
  /** The Pyth API key the Hermes and Benchmarks simulators demand; undefined: none asked. */
  pythApiKey?: string
  /** The key the explorer simulator demands; undefined: none asked. */
  explorerApiKey?: string
  /** The one key the 0x simulator accepts; undefined: any non-empty key. */
  zeroExApiKey?: string
  /** `off`: no simulator answers 429 (DEVNET_UPSTREAM_LIMITS); default `documented`. */
  rateLimits?: 'documented' | 'off'
}

export interface RunningUpstreams {
  /**
   * Base URLs without a trailing slash. gtradeBackend also serves the backend-global history path
   * (/api/personal-trading-history/…), so use it for both gTrade hosts. blockscout's ends in the chain id
   * (`/8453`), as Blockscout's PRO API URLs do.
   */
  urls: Record<UpstreamName, string>
  stop(): Promise<void>
}

const keyOf = (apiKey: string | undefined) => (apiKey === undefined ? {} : { apiKey })

/** Starts every upstream simulator on 127.0.0.1. */
export async function startUpstreams(options: StartUpstreamsOptions): Promise<RunningUpstreams> {
  const { sim } = options
  const clock = options.clock ?? sim.clock
  // Undefined: each simulator's documented default.
  const rateLimit = options.rateLimits === 'off' ? { rateLimit: NO_RATE_LIMIT } : {}
  const apps: Record<UpstreamName, Hono> = {
    coinbaseExchange: createCoinbaseExchangeApp({ sim, clock, ...rateLimit }),
    pythHermes: createPythHermesApp({
      sim,
      clock,
      ...keyOf(options.pythApiKey),
      ...rateLimit,
    }),
    pythBenchmarks: createPythBenchmarksApp({ sim, ...keyOf(options.pythApiKey), ...rateLimit }),
    gtradeBackend: createGtradeBackendApp({
      sim,
      clock,
      trades: options.gtradeTrades,
      ...(options.currentBlock ? { currentBlock: options.currentBlock } : {}),
    }),
    blockscout: createBlockscoutApp({
      sim,
      balances: options.tokenBalances,
      ...keyOf(options.explorerApiKey),
      ...rateLimit,
    }),
    morphoApi: createMorphoApiApp({ books: options.midnightBooks ?? { markets: async () => [] }, clock }),
    zeroEx: createZeroExApp({
      liquidity: options.swapLiquidity ?? NO_SWAP_LIQUIDITY,
      ...keyOf(options.zeroExApiKey),
      ...rateLimit,
    }),
  }

  const servers: ServerType[] = []
  const urls = {} as Record<UpstreamName, string>
  try {
    for (const name of Object.keys(apps) as UpstreamName[]) {
      const app = apps[name]
      const port = await new Promise<number>((resolve, reject) => {
        const server = serve(
          { fetch: app.fetch, port: options.ports?.[name] ?? 0, hostname: '127.0.0.1' },
          (info: AddressInfo) => resolve(info.port),
        )
        // A port taken since it was chosen (a neighbour's test run) is a PortTakenError, which
        // onFreePort answers by starting again on fresh ports.
        server.once('error', (err: NodeJS.ErrnoException) =>
          reject(
            err.code === 'EADDRINUSE'
              ? new PortTakenError(`upstream simulator ${name}: port ${options.ports?.[name]} is taken`, {
                  cause: err,
                })
              : err,
          ),
        )
        servers.push(server)
      })
      // Blockscout's PRO API puts the chain id first: the explorer's base URL includes it.
      urls[name] = `http://127.0.0.1:${port}${name === 'blockscout' ? '/8453' : ''}`
    }
  } catch (err) {
    await closeAll(servers)
    throw err
  }
  return { urls, stop: () => closeAll(servers) }
}

async function closeAll(servers: readonly ServerType[]): Promise<void> {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          // A server that never started listening reports ERR_SERVER_NOT_RUNNING; either way it is closed.
          server.close(() => resolve())
          // Keep-alive sockets from fetch clients would otherwise hold close() open.
          if ('closeAllConnections' in server) server.closeAllConnections()
        }),
    ),
  )
}
