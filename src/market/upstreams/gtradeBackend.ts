import { z } from 'zod'
import { UpstreamError } from '../../errors.js'
import { createTtlCache } from '../../ttlCache.js'
import type { FetchJson } from './fetchJson.js'
import { wireNumber, wirePrice } from './wireNumbers.js'

const NAME = 'gTrade backend'
const num = wireNumber

/**
 * The parts of GlobalTradingVariablesBackend (protocols.md §1) the reads use. Integers and fixed-point
 * values arrive as strings; a part a read needs but the document lacks is that read's 502, not every read's.
 */
const tradingVariablesSchema = z.object({
  pairs: z.array(z.object({ from: z.string(), to: z.string(), spreadP: num, groupIndex: num.optional() })),
  groups: z.array(z.object({ name: z.string(), minLeverage: num, maxLeverage: num })).optional(),
  pairInfos: z.object({ maxLeverages: z.array(num).optional() }).optional(),
  // Read one by one in openInterest(): an inactive or odd collateral must not sink the pairs and groups.
  collaterals: z.array(z.unknown()).optional(),
})
const collateralSchema = z.object({
  collateralIndex: num,
  symbol: z.string(),
  isActive: z.boolean().optional(),
  prices: z.object({ collateralPriceUsd: wirePrice }),
  collateralConfig: z.object({ decimals: num }),
  pairOis: z.array(
    z.object({
      // Pre-v10 OI in 1e10 collateral units (the SDK's convertOpenInterest, vendored in
      // test/fixtures/upstreams/gtrade).
      beforeV10: z.object({ long: num, short: num }).optional(),
      collateral: z.object({ oiLongCollateral: num, oiShortCollateral: num }),
    }),
  ),
})
type TradingVariables = z.infer<typeof tradingVariablesSchema>

export interface GtradePair {
  /** Position in the backend's raw `pairs` array: the onchain pair index. */
  pairIndex: number
  from: string
  to: string
  /** Pair spread in percent. */
  spreadPct: number
  /** Index into groups(); null when the backend omits it. */
  groupIndex: number | null
  /** The pair's own max leverage (pairInfos.maxLeverages), human; null when it has none (the group's applies). */
  customMaxLeverage: number | null
}

export interface GtradeGroup {
  name: string
  /** Human leverage (the wire carries x1e3). */
  minLeverage: number
  maxLeverage: number
}

/** One pair's open interest per side, summed over every active collateral and valued in USD. */
export interface GtradePairOi {
  longUsd: number
  shortUsd: number
}

export interface GtradeBackend {
  /** The pair universe from /trading-variables/all; placeholders with an empty `from` are left out. */
  pairs(): Promise<GtradePair[]>
  /** Leverage groups, in index order (GtradePair.groupIndex points here). */
  groups(): Promise<GtradeGroup[]>
  /**
   * Open interest by pairIndex: each collateral's `pairOis[i]` (the v10 collateral OI plus the pre-v10 OI),
   * in collateral units at its decimals, times its `collateralPriceUsd`. This is the book at open size
   * (the backend's static collateral OI), not marked to market.
   */
  openInterest(): Promise<Map<number, GtradePairOi>>
}

/**
 * gTrade backend adapter. One document, /trading-variables/all, cached 10 s (the backend refreshes it
 * every few blocks; open interest is the fastest-moving part) and coalesced across concurrent reads.
 */
export function createGtradeBackend(baseUrl: string, fetchJson: FetchJson): GtradeBackend {
  const cache = createTtlCache<TradingVariables>(10_000)
  const variables = () =>
    cache.get('all', async () => {
      const parsed = tradingVariablesSchema.safeParse(
        await fetchJson(NAME, `${baseUrl}/trading-variables/all`),
      )
      if (!parsed.success) throw new UpstreamError(NAME, 'unexpected trading-variables shape')
      return parsed.data
    })
  return {
    async pairs() {
      const v = await variables()
      const custom = v.pairInfos?.maxLeverages ?? []
      // Never renumber after filtering: the index is the onchain one (protocols.md §1).
      return v.pairs
        .map((p, pairIndex) => ({
          pairIndex,
          from: p.from,
          to: p.to,
          spreadPct: p.spreadP / 1e10,
          groupIndex: p.groupIndex ?? null,
          customMaxLeverage: (custom[pairIndex] ?? 0) > 0 ? (custom[pairIndex] as number) / 1e3 : null,
        }))
        .filter((p) => p.from !== '')
    },
    async groups() {
      const v = await variables()
      if (v.groups === undefined) throw new UpstreamError(NAME, 'trading variables without groups')
      return v.groups.map((g) => ({
        name: g.name,
        minLeverage: g.minLeverage / 1e3,
        maxLeverage: g.maxLeverage / 1e3,
      }))
    },
    async openInterest() {
      const v = await variables()
      if (v.collaterals === undefined) throw new UpstreamError(NAME, 'trading variables without collaterals')
      const book = new Map<number, GtradePairOi>()
      for (const raw of v.collaterals) {
        // An inactive collateral is skipped before it is read; an active one must read whole: its open
        // interest is money.
        if (typeof raw === 'object' && raw !== null && (raw as { isActive?: unknown }).isActive === false)
          continue
        const parsed = collateralSchema.safeParse(raw)
        if (!parsed.success) throw new UpstreamError(NAME, 'unexpected collateral in trading variables')
        const c = parsed.data
        const unit = 10 ** c.collateralConfig.decimals
        const usd = c.prices.collateralPriceUsd
        c.pairOis.forEach((oi, pairIndex) => {
          const long = oi.collateral.oiLongCollateral / unit + (oi.beforeV10?.long ?? 0) / 1e10
          const short = oi.collateral.oiShortCollateral / unit + (oi.beforeV10?.short ?? 0) / 1e10
          const entry = book.get(pairIndex) ?? { longUsd: 0, shortUsd: 0 }
          book.set(pairIndex, { longUsd: entry.longUsd + long * usd, shortUsd: entry.shortUsd + short * usd })
        })
      }
      return book
    },
  }
}
