import { z } from 'zod'
import { UpstreamError } from '../../errors.js'
import type { MarketData } from '../marketData.js'

/** What the read answers (the route's output schema). */
export const riskPairsOutput = z.object({
  pairs: z.array(
    z.object({
      pairIndex: z.number().int(),
      symbol: z.string(),
      group: z.string(),
      minLeverage: z.number(),
      maxLeverage: z.number(),
      spreadPct: z.number(),
    }),
  ),
})

export type RiskPair = z.output<typeof riskPairsOutput>['pairs'][number]

/**
 * The perp venue's tradable pair universe from its backend. Max leverage follows the venue's rule: the
 * pair's own cap when it has one, else its group's; a pair whose cap is below its group's minimum is
 * disabled there (how delisted pairs are parked) and left out, as are the empty placeholder slots.
 */
export async function getRiskPairs(market: MarketData): Promise<RiskPair[]> {
  const [pairs, groups] = await Promise.all([market.gtrade.pairs(), market.gtrade.groups()])
  return pairs.flatMap((p): RiskPair[] => {
    const group = p.groupIndex === null ? undefined : groups[p.groupIndex]
    if (group === undefined) {
      throw new UpstreamError('gTrade backend', `pair ${p.pairIndex} names no listed group`)
    }
    const maxLeverage = p.customMaxLeverage ?? group.maxLeverage
    if (maxLeverage < group.minLeverage) return []
    return [
      {
        pairIndex: p.pairIndex,
        symbol: `${p.from}/${p.to}`,
        group: group.name,
        minLeverage: group.minLeverage,
        maxLeverage,
        spreadPct: p.spreadPct,
      },
    ]
  })
}
