import { findPythFeed } from './findPythFeed.js'
import type { MarketData } from './marketData.js'

export interface SpotLeg {
  venue: string
  usd: number
  change24h: number
  volume24h: number
  high24h: number
  low24h: number
}

export interface PerpLeg {
  venue: string
  pairIndex: number
  mark: number
  index: number
}

export interface SymbolPrices {
  symbol: string
  spot: SpotLeg | null
  perp: PerpLeg | null
}

const SPOT_VENUE = 'coinbase-exchange'
const PERP_VENUE = 'gtrade'

/**
 * Both venue legs per symbol. Spot: the exchange's `SYM-USD` product (ticker + 24 h stats). Perp: the
 * gTrade pair `SYM/USD`, with `index` = the oracle (Pyth) price used for liquidations and `mark` = what a
 * minimal market long fills at, index plus half the pair spread. A leg is null where its venue does not
 * list the symbol.
 */
export async function getPrices(market: MarketData, symbols: readonly string[]): Promise<SymbolPrices[]> {
  const [products, pairs, feeds] = await Promise.all([
    market.coinbase.products(),
    market.gtrade.pairs(),
    market.pyth.feeds(),
  ])
  symbols = [...new Set(symbols.map(canonicalSymbol))]
  const perpPairs = symbols.map((s) => pairs.find((p) => p.from === s && p.to === 'USD'))
  const perpFeeds = perpPairs.map((p) => (p === undefined ? undefined : findPythFeed(feeds, p.from, p.to)))
  const oracle = await market.pyth.latest(perpFeeds.flatMap((f) => (f === undefined ? [] : [f.id])))

  return Promise.all(
    symbols.map(async (symbol, i): Promise<SymbolPrices> => {
      const product = `${symbol}-USD`
      let spot: SpotLeg | null = null
      if (products.has(product)) {
        const [ticker, stats] = await Promise.all([
          market.coinbase.ticker(product),
          market.coinbase.stats(product),
        ])
        spot = {
          venue: SPOT_VENUE,
          usd: ticker.price,
          change24h: stats.open > 0 ? round(((stats.last - stats.open) / stats.open) * 100, 4) : 0,
          volume24h: stats.volume,
          high24h: stats.high,
          low24h: stats.low,
        }
      }
      const pair = perpPairs[i]
      const feed = perpFeeds[i]
      const index = feed === undefined ? undefined : oracle.get(feed.id)?.price
      const perp: PerpLeg | null =
        pair === undefined || index === undefined
          ? null
          : {
              venue: PERP_VENUE,
              pairIndex: pair.pairIndex,
              mark: significant(index * (1 + pair.spreadPct / 200)),
              index: significant(index),
            }
      return { symbol, spot, perp }
    }),
  )
}

/** Tickers are upper case, except the tokenized stocks' trailing lowercase `c` (AAPLc). */
export function canonicalSymbol(symbol: string): string {
  return /^[A-Z0-9]+c$/.test(symbol) ? symbol : symbol.toUpperCase()
}

function round(value: number, decimals: number): number {
  const f = 10 ** decimals
  return Math.round(value * f) / f
}

/** Ten significant digits: float noise off, every real digit kept. */
function significant(value: number): number {
  return Number(value.toPrecision(10))
}
