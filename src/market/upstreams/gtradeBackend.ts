import { z } from 'zod'
import { createTtlCache } from '../ttlCache.js'
import { type FetchJson, UpstreamError } from './fetchJson.js'

const NAME = 'gTrade backend'
const tradingVariablesSchema = z.object({
  pairs: z.array(z.object({ from: z.string(), to: z.string(), spreadP: z.coerce.string() })),
  pairInfos: z.object({ maxLeverages: z.array(z.coerce.string()) }).optional(),
})

export interface GtradePair {
  /** Position in the backend's raw `pairs` array: the onchain pair index. */
  pairIndex: number
  from: string
  to: string
  /** Pair spread in percent. */
  spreadPct: number
}

export interface GtradeBackend {
  /** The pair universe from /trading-variables/all (cached 30 s). */
  pairs(): Promise<GtradePair[]>
}

export function createGtradeBackend(baseUrl: string, fetchJson: FetchJson): GtradeBackend {
  const cache = createTtlCache<GtradePair[]>(30_000)
  return {
    pairs: () =>
      cache.get('pairs', async () => {
        const parsed = tradingVariablesSchema.safeParse(
          await fetchJson(NAME, `${baseUrl}/trading-variables/all`),
        )
        if (!parsed.success) throw new UpstreamError(NAME, 'unexpected trading-variables shape')
        // Never renumber after filtering: the index is the onchain one (protocols.md §1).
        return parsed.data.pairs
          .map((p, pairIndex) => ({ pairIndex, from: p.from, to: p.to, spreadPct: Number(p.spreadP) / 1e10 }))
          .filter((p) => p.from !== '')
      }),
  }
}
