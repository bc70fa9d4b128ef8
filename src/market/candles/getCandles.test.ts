import { describe, expect, test } from 'vitest'
import { getCandlesRoute } from '../../routes/candles/getCandles.js'
import type { MarketData } from '../marketData.js'
import { createCoinbaseExchange } from '../upstreams/coinbaseExchange.js'
import { createExplorer } from '../upstreams/explorer.js'
import type { FetchJson } from '../upstreams/fetchJson.js'
import { createGtradeBackend } from '../upstreams/gtradeBackend.js'
import { createGtradeHistory } from '../upstreams/gtradeHistory.js'
import { createMorphoMidnight } from '../upstreams/morphoMidnight.js'
import { createPyth } from '../upstreams/pyth.js'
import { getCandles } from './getCandles.js'

/** The real adapters over a canned upstream: the exchange lists BTC-USD and has no bars in any window. */
function quietMarket(): MarketData {
  const fetchJson: FetchJson = async (upstream, url) => {
    const path = new URL(url).pathname
    if (path === '/products') return [{ id: 'BTC-USD', status: 'online' }]
    if (path.endsWith('/candles')) return []
    throw new Error(`${upstream}: unexpected ${url}`)
  }
  return {
    coinbase: createCoinbaseExchange('http://exchange.test', fetchJson),
    pyth: createPyth('http://hermes.test', 'http://benchmarks.test', fetchJson),
    gtrade: createGtradeBackend('http://gtrade.test', fetchJson),
    gtradeHistory: createGtradeHistory('http://history.test', fetchJson),
    midnight: createMorphoMidnight('http://morpho.test', fetchJson),
    zeroEx: null,
    explorer: createExplorer('http://explorer.test', fetchJson),
    openCircuits: () => ({}),
  }
}

describe('getCandles', () => {
  test('behavior: a window without bars has null extremes, never fake zeros', async () => {
    const c = await getCandles(
      quietMarket(),
      { product: 'BTC-USD', quote: 'USD', days: 2 },
      Date.UTC(2026, 0, 1),
    )
    expect(c).toEqual({
      productId: 'BTC-USD',
      days: 2,
      granularitySec: 3600,
      high: null,
      low: null,
      candles: 0,
      series: [],
    })
    // The route documents exactly this shape.
    expect(getCandlesRoute.output.safeParse(c).success).toBe(true)
  })
})
