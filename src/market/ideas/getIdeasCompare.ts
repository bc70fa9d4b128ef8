import { z } from 'zod'
import { compareAssets } from '../../analytics/compareAssets.js'
import { type IdeaBasis, ideaBasis } from '../../analytics/ideaFromBars.js'
import { symbol, unixSeconds } from '../../chain/fields.js'
import { InvalidInputError, UpstreamError } from '../../errors.js'
import type { MarketData } from '../marketData.js'
import { round, significant } from '../numbers.js'
import { canonicalSymbol } from '../prices/getPrices.js'
import { UnknownPerpSymbolError } from '../unknownPerpSymbolError.js'
import { assetRead, assetReadOf } from './getAssetIdea.js'
import { IDEAS_DISCLAIMER, IDEAS_DISCLAIMER_TEXT, readIdeasCached } from './readIdeas.js'

/** What the read answers (the route's output schema). */
export const ideasCompareOutput = z.object({
  a: assetRead,
  b: assetRead,
  basis: ideaBasis,
  status: z.enum(['ok', 'insufficient_history']),
  bars: z.number().int().describe('Common bars compared'),
  needed: z.number().int().nullable().describe('insufficient_history: the 20 common bars needed'),
  from: unixSeconds.nullable(),
  to: unixSeconds.nullable(),
  ratio: z.number().nullable(),
  relativeStrength: z.number().nullable().describe('Return of a minus return of b over the window, percent'),
  ratioSlopePctPerBar: z
    .number()
    .nullable()
    .describe('Least-squares slope of ln(a ÷ b) per bar, as percent per bar'),
  ratioTrend: z
    .enum(['up', 'down', 'flat'])
    .nullable()
    .describe('up / down when the fitted move over the window is at least one σ of ln(a ÷ b)'),
  zScore: z.number().nullable(),
  correlation: z.number().nullable(),
  suggestion: z.object({ long: symbol, short: symbol }).nullable(),
  disclaimer: IDEAS_DISCLAIMER_TEXT,
})

export type IdeasCompare = z.output<typeof ideasCompareOutput>

/**
 * GET /v1/ideas/compare: `compareAssets` over the two markets' basis bars (the bars `readIdeas` reads for
 * their ideas, joined on bar time) and each leg's own read in the single-asset form. a = b is a 400 naming
 * `b`; an unlisted leg a 404 naming it; a listed leg with no price or bar an UpstreamError (502).
 */
export async function getIdeasCompare(
  market: MarketData,
  q: { a: string; b: string; basis: IdeaBasis },
  nowMs: number,
): Promise<IdeasCompare> {
  const a = canonicalSymbol(q.a)
  const b = canonicalSymbol(q.b)
  if (a === b) throw new InvalidInputError('b', 'query field "b" must name another market than "a".')
  const r = await readIdeasCached(market, [a, b], q.basis, nowMs)
  for (const [field, sym] of [
    ['a', a],
    ['b', b],
  ] as const) {
    if (r.unknown.includes(sym)) throw new UnknownPerpSymbolError([sym], field)
  }
  const readA = r.reads.find((x) => x.symbol === a)
  const readB = r.reads.find((x) => x.symbol === b)
  if (readA === undefined || readB === undefined) {
    throw new UpstreamError('candles', `no price or bars for ${r.unavailable.join(', ')}`)
  }
  const pair = compareAssets(r.bars.get(a) ?? [], r.bars.get(b) ?? [])
  const legs = { a: assetReadOf(readA), b: assetReadOf(readB), basis: q.basis, disclaimer: IDEAS_DISCLAIMER }
  if (pair.status === 'insufficient_history') {
    return {
      ...legs,
      status: 'insufficient_history',
      bars: pair.got,
      needed: pair.needed,
      from: null,
      to: null,
      ratio: null,
      relativeStrength: null,
      ratioSlopePctPerBar: null,
      ratioTrend: null,
      zScore: null,
      correlation: null,
      suggestion: null,
    }
  }
  const r6 = (x: number | null) => (x === null ? null : round(x, 6))
  return {
    ...legs,
    status: 'ok',
    bars: pair.bars,
    needed: null,
    from: pair.from,
    to: pair.to,
    ratio: significant(pair.ratio),
    relativeStrength: round(pair.relativeStrength, 4),
    ratioSlopePctPerBar: round(pair.ratioSlopePctPerBar, 6),
    ratioTrend: pair.ratioTrend,
    zScore: r6(pair.zScore),
    correlation: r6(pair.correlation),
    suggestion:
      pair.suggestion === null
        ? null
        : { long: pair.suggestion.long === 'a' ? a : b, short: pair.suggestion.short === 'a' ? a : b },
  }
}
