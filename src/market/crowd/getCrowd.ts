import { z } from 'zod'
import { AppError } from '../../errors.js'
import type { MarketData } from '../marketData.js'
import { round } from '../numbers.js'
import { canonicalSymbol } from '../prices/getPrices.js'
import type { GtradePair } from '../upstreams/gtradeBackend.js'

/** Every requested ticker names no perp pair: nothing to read, so nothing to charge for. */
export class UnknownPairError extends AppError {
  override readonly name = 'UnknownPairError'
  constructor(readonly symbols: readonly string[]) {
    super(
      400,
      'unknown_symbol',
      `The perp venue lists no pair for ${symbols.join(', ')}: pass tickers such as BTC, ETH, EUR or XAU (a USD-quoted pair's base), or a pair such as USD/JPY. GET /v1/risk/pairs lists every pair.`,
      'symbols',
      { unknown: [...symbols] },
    )
  }
}

/** What the read answers (the route's output schema). */
export const crowdOutput = z.object({
  totalBookUsd: z.number().describe('Open interest of every listed pair, long plus short, USD'),
  pairs: z.array(
    z.object({
      symbol: z.string().describe('The base of a USD-quoted pair (BTC), else the pair (USD/JPY)'),
      pair: z.string().describe('FROM/TO as the venue lists it'),
      pairIndex: z.number().int(),
      longPct: z.number().nullable(),
      shortPct: z.number().nullable(),
      longUsd: z.number(),
      shortUsd: z.number(),
      totalUsd: z.number(),
      bookSharePct: z.number().nullable(),
    }),
  ),
  unknown: z
    .array(z.string())
    .describe('Requested tickers no pair matches (canonical case); empty when none'),
})

export type CrowdPair = Crowd['pairs'][number]
export type Crowd = z.output<typeof crowdOutput>

/**
 * Crowd positioning from the perp venue's open interest as its backend serves it (trading variables,
 * every collateral valued in USD). Without `symbols`, every listed pair in pairIndex order; with them,
 * the matching pairs in the order asked, unknown tickers apart in `unknown` (all unknown:
 * UnknownPairError, 400). `bookSharePct` is always against the whole book, whatever the filter.
 */
export async function getCrowd(market: MarketData, symbols?: readonly string[]): Promise<Crowd> {
  const [pairs, oi] = await Promise.all([market.gtrade.pairs(), market.gtrade.openInterest()])
  const sides = (p: GtradePair) => oi.get(p.pairIndex) ?? { longUsd: 0, shortUsd: 0 }
  const totalBookUsd = pairs.reduce((sum, p) => sum + sides(p).longUsd + sides(p).shortUsd, 0)

  let selected = pairs
  let unknown: string[] = []
  if (symbols !== undefined) {
    const wanted = [...new Set(symbols.map(canonicalSymbol))]
    const found = wanted.map((s) => ({ symbol: s, pair: pairs.find((p) => matches(p, s)) }))
    unknown = found.filter((f) => f.pair === undefined).map((f) => f.symbol)
    if (unknown.length === wanted.length) throw new UnknownPairError(unknown)
    const seen = new Set<number>()
    selected = found.flatMap((f) => {
      if (f.pair === undefined || seen.has(f.pair.pairIndex)) return []
      seen.add(f.pair.pairIndex)
      return [f.pair]
    })
  }

  return {
    totalBookUsd: round(totalBookUsd, 2),
    pairs: selected.map((p) => {
      const { longUsd, shortUsd } = sides(p)
      const totalUsd = longUsd + shortUsd
      return {
        symbol: p.to === 'USD' ? p.from : `${p.from}/${p.to}`,
        pair: `${p.from}/${p.to}`,
        pairIndex: p.pairIndex,
        longPct: totalUsd > 0 ? round((longUsd / totalUsd) * 100, 2) : null,
        shortPct: totalUsd > 0 ? round((shortUsd / totalUsd) * 100, 2) : null,
        longUsd: round(longUsd, 2),
        shortUsd: round(shortUsd, 2),
        totalUsd: round(totalUsd, 2),
        bookSharePct: totalBookUsd > 0 ? round((totalUsd / totalBookUsd) * 100, 4) : null,
      }
    }),
    unknown,
  }
}

/** BTC names BTC/USD; a pair is named as FROM/TO or FROMTO; a USD-based pair also by its quote (JPY). */
function matches(p: GtradePair, symbol: string): boolean {
  return (
    symbol === `${p.from}/${p.to}` ||
    symbol === `${p.from}${p.to}` ||
    (p.to === 'USD' && symbol === p.from) ||
    (p.from === 'USD' && symbol === p.to)
  )
}
