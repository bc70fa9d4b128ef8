import type { Upstreams } from '../config.js'
import { type CoinbaseExchange, createCoinbaseExchange } from './upstreams/coinbaseExchange.js'
import { createFetchJson } from './upstreams/fetchJson.js'
import { createGtradeBackend, type GtradeBackend } from './upstreams/gtradeBackend.js'
import { createPyth, type Pyth } from './upstreams/pyth.js'

/** The upstream adapters market reads are built on; each talks to one configured base URL. */
export interface MarketData {
  coinbase: CoinbaseExchange
  pyth: Pyth
  gtrade: GtradeBackend
}

export function createMarketData(upstreams: Upstreams): MarketData {
  const fetchJson = createFetchJson()
  return {
    coinbase: createCoinbaseExchange(upstreams.coinbaseExchange, fetchJson),
    pyth: createPyth(upstreams.pythHermes, upstreams.pythBenchmarks, fetchJson),
    gtrade: createGtradeBackend(upstreams.gtradeBackend, fetchJson),
  }
}
