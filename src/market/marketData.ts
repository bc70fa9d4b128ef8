import { circuitBreakers } from '../circuitBreaker.js'
import type { OutboundOptions, Upstreams } from '../config.js'
import { type CoinbaseExchange, createCoinbaseExchange } from './upstreams/coinbaseExchange.js'
import { createExplorer, type Explorer } from './upstreams/explorer.js'
import { createFetchJson } from './upstreams/fetchJson.js'
import { createGtradeBackend, type GtradeBackend } from './upstreams/gtradeBackend.js'
import { createGtradeHistory, type GtradeHistory } from './upstreams/gtradeHistory.js'
import { createMorphoMidnight, type MorphoMidnight } from './upstreams/morphoMidnight.js'
import { createPyth, type Pyth } from './upstreams/pyth.js'
import { createTokenBucket } from './upstreams/tokenBucket.js'
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
      createTokenBucket({
        ratePerSec: upstreams.coinbaseMaxRps,
        burst: Math.max(1, upstreams.coinbaseMaxRps),
      }),
    ),
    pyth: createPyth(upstreams.pythHermes, upstreams.pythBenchmarks, fetchJson, upstreams.pythApiKey),
    gtrade: createGtradeBackend(upstreams.gtradeBackend, fetchJson),
    gtradeHistory: createGtradeHistory(upstreams.gtradeHistory, fetchJson),
    midnight: createMorphoMidnight(upstreams.morphoApi, fetchJson),
    zeroEx:
      upstreams.zeroExApiKey === undefined
        ? null
        : createZeroEx(upstreams.zeroEx, upstreams.zeroExApiKey, fetchJson),
    explorer: createExplorer(upstreams.explorer, fetchJson),
  }
}
