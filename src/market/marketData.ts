import { circuitBreakers } from '../circuitBreaker.js'
import type { OutboundOptions, Upstreams } from '../config.js'
import { type CoinbaseExchange, createCoinbaseExchange } from './upstreams/coinbaseExchange.js'
import { createExplorer, type Explorer } from './upstreams/explorer.js'
import { createFetchJson } from './upstreams/fetchJson.js'
import { createGtradeBackend, type GtradeBackend } from './upstreams/gtradeBackend.js'
import { createGtradeHistory, type GtradeHistory } from './upstreams/gtradeHistory.js'
import { createMorphoMidnight, type MorphoMidnight } from './upstreams/morphoMidnight.js'
import { createPyth, type Pyth } from './upstreams/pyth.js'
import { createWindowLimit } from './upstreams/windowLimit.js'
import { createZeroEx, type ZeroEx } from './upstreams/zeroEx.js'

/** The upstream adapters market reads are built on; each talks to one configured base URL. */
export interface MarketData {
  coinbase: CoinbaseExchange
  pyth: Pyth
  gtrade: GtradeBackend
  /** gTrade trade history (backend-global personal-trading-history), live. */
  gtradeHistory: GtradeHistory
  /** Morpho's Midnight API (fixed-rate books). */
  midnight: MorphoMidnight
  /** The 0x Swap API, only when an API key is configured (ZEROX_API_KEY); else null. */
  zeroEx: ZeroEx | null
  /** The block explorer (Blockscout REST v2): which ERC-20s an address holds. */
  explorer: Explorer
  /** The upstreams whose circuit is not closed now (for /ready), by name. */
  openCircuits(): Record<string, string>
}

/**
 * Pyth counts 10 s windows, 0x and Blockscout 1 s ones. Ours are wider (requests are counted as they
 * leave here and as they arrive there): by 1 s for Pyth, whose 429 locks us out for 60 s, a quarter
 * second for the others. A turn further off than 5 s is refused.
 */
const perTenSeconds = (upstream: string, max: number) =>
  createWindowLimit({ upstream, max, windowMs: 10_000, marginMs: 1000 })
const perSecond = (upstream: string, max: number) =>
  createWindowLimit({ upstream, max, windowMs: 1000, marginMs: 250 })
/**
 * `rps` a second, fractions too (0.5: one every 2 s); within Coinbase's bucket, which allows bursts of 15.
 * A read's own fan-out can be long (a week of minute bars is 34 requests): a turn may be 15 s off.
 */
const perRate = (upstream: string, rps: number) => {
  const max = rps === 0 ? 0 : Math.max(1, Math.floor(rps))
  const windowMs = max === 0 ? 1000 : (1000 * max) / rps
  return createWindowLimit({ upstream, max, windowMs, marginMs: 250, maxWaitMs: 15_000 })
}

export function createMarketData(upstreams: Upstreams, outbound?: OutboundOptions): MarketData {
  const breakerOf =
    outbound === undefined
      ? undefined
      : circuitBreakers({ failures: outbound.breakerFailures, coolDownMs: outbound.breakerCoolDownMs })
  const fetchJson = createFetchJson(
    outbound === undefined || breakerOf === undefined
      ? {}
      : { timeoutMs: outbound.upstreamTimeoutMs, breakerOf },
  )
  return {
    openCircuits: () => breakerOf?.notClosed() ?? {},
    coinbase: createCoinbaseExchange(
      upstreams.coinbaseExchange,
      fetchJson,
      perRate('Coinbase Exchange', upstreams.coinbaseMaxRps),
    ),
    pyth: createPyth(upstreams.pythHermes, upstreams.pythBenchmarks, fetchJson, {
      ...(upstreams.pythApiKey === undefined ? {} : { apiKey: upstreams.pythApiKey }),
      hermesLimit: perTenSeconds('Pyth Hermes', upstreams.pythMaxPer10s),
      benchmarksLimit: perTenSeconds('Pyth Benchmarks', upstreams.pythTradingViewMaxPer10s),
    }),
    gtrade: createGtradeBackend(upstreams.gtradeBackend, fetchJson),
    gtradeHistory: createGtradeHistory(upstreams.gtradeHistory, fetchJson),
    midnight: createMorphoMidnight(upstreams.morphoApi, fetchJson),
    zeroEx:
      upstreams.zeroExApiKey === undefined
        ? null
        : createZeroEx(
            upstreams.zeroEx,
            upstreams.zeroExApiKey,
            fetchJson,
            perSecond('0x Swap API', upstreams.zeroExMaxRps),
          ),
    explorer: createExplorer(upstreams.explorer, fetchJson, {
      ...(upstreams.explorerApiKey === undefined ? {} : { apiKey: upstreams.explorerApiKey }),
      limit: perSecond('block explorer', upstreams.explorerMaxRps),
    }),
  }
}
