import { z } from 'zod'
import { symbol, unixSeconds } from '../../chain/fields.js'
import { AppError } from '../../errors.js'
import { findPythFeed } from '../findPythFeed.js'
import type { MarketData } from '../marketData.js'
import { round, significant } from '../numbers.js'

/** Every requested ticker is unknown to both venues: nothing to price, so nothing to charge for. */
export class UnknownSymbolError extends AppError {
  override readonly name = 'UnknownSymbolError'
  constructor(readonly symbols: readonly string[]) {
    super(
      400,
      'unknown_symbol',
      `No venue prices ${symbols.join(', ')}: symbols must include at least one ticker listed on the exchange (SYM-USD) or the perp venue (SYM/USD), such as BTC, ETH, EUR or XAU.`,
      'symbols',
      { unknown: [...symbols] },
    )
  }
}

/** What the read answers (the route's output schema). */
export const pricesOutput = z.object({
  asOf: unixSeconds,
  prices: z.array(
    z.object({
      symbol,
      spot: z
        .object({
          venue: z.string(),
          usd: z.number(),
          change24h: z.number(),
          volume24h: z.number(),
          high24h: z.number(),
          low24h: z.number(),
        })
        .nullable(),
      perp: z
        .object({ venue: z.string(), pairIndex: z.number().int(), mark: z.number(), index: z.number() })
        .nullable(),
    }),
  ),
  unknown: z
    .array(z.string())
    .describe('Requested tickers neither venue can price (canonical case); empty when none'),
})

export type SpotLeg = NonNullable<SymbolPrices['spot']>
export type PerpLeg = NonNullable<SymbolPrices['perp']>
export type SymbolPrices = Prices['prices'][number]
export type Prices = Omit<z.output<typeof pricesOutput>, 'asOf'>

const SPOT_VENUE = 'coinbase-exchange'
const PERP_VENUE = 'gtrade'

/**
 * Both venue legs per symbol. Spot: the exchange's `SYM-USD` product (ticker + 24 h stats). Perp: the
 * gTrade pair `SYM/USD`, with `index` = the oracle (Pyth) price used for liquidations and `mark` = what a
 * minimal market long fills at, index plus half the pair spread. A leg is null where its venue does not
 * list the symbol, or (perp) where the oracle has no price for it right now.
 *
 * A symbol is unknown when no leg could ever be produced for it: no exchange product and no perp pair
 * with an oracle feed. Unknown symbols are returned apart, in `unknown`; when every symbol is unknown,
 * `UnknownSymbolError` (400) is thrown before any price is read.
 */
export async function getPrices(market: MarketData, symbols: readonly string[]): Promise<Prices> {
  const [products, pairs, feeds] = await Promise.all([
    market.coinbase.products(),
    market.gtrade.pairs(),
    market.pyth.feeds(),
  ])
  const listings = [...new Set(symbols.map(canonicalSymbol))].map((symbol) => {
    const pair = pairs.find((p) => p.from === symbol && p.to === 'USD')
    const feed = pair === undefined ? undefined : findPythFeed(feeds, pair.from, pair.to)
    const product = products.has(`${symbol}-USD`) ? `${symbol}-USD` : undefined
    return { symbol, product, perp: pair !== undefined && feed !== undefined ? { pair, feed } : undefined }
  })
  const known = listings.filter((l) => l.product !== undefined || l.perp !== undefined)
  const unknown = listings.filter((l) => l.product === undefined && l.perp === undefined).map((l) => l.symbol)
  if (known.length === 0) throw new UnknownSymbolError(unknown)
  const oracle = await market.pyth.latest(
    known.flatMap((l) => (l.perp === undefined ? [] : [l.perp.feed.id])),
  )

  const prices = await Promise.all(
    known.map(async ({ symbol, product, perp: listed }): Promise<SymbolPrices> => {
      let spot: SpotLeg | null = null
      if (product !== undefined) {
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
      const index = listed === undefined ? undefined : oracle.get(listed.feed.id)?.price
      const perp: PerpLeg | null =
        listed === undefined || index === undefined
          ? null
          : {
              venue: PERP_VENUE,
              pairIndex: listed.pair.pairIndex,
              mark: significant(index * (1 + listed.pair.spreadPct / 200)),
              index: significant(index),
            }
      return { symbol, spot, perp }
    }),
  )
  return { prices, unknown }
}

/** Tickers are upper case, except the tokenized stocks' trailing lowercase `c` (AAPLc). */
export function canonicalSymbol(symbol: string): string {
  return /^[A-Z0-9]+c$/.test(symbol) ? symbol : symbol.toUpperCase()
}
