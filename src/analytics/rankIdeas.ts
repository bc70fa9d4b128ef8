import { z } from 'zod'
import { symbol } from '../chain/fields.js'
import { prose } from '../prose.js'
import { compareIdeas } from './compareIdeas.js'
import type { IdeaRead } from './ideaFromBars.js'

/** Which ideas are worth listing (see MIN_EDGE); GET /v1/ideas takes it as a query field. */
export const worthwhileness = z.enum(['strict', 'loose']).default('strict')

export type Worthwhileness = z.output<typeof worthwhileness>
export const ideaRanking = z
  .enum(['edge-rate', 'conviction'])
  .default('edge-rate')
  .describe('edge-rate (default): edge × leverage per holding time; conviction: conviction first')

export type IdeaRanking = z.output<typeof ideaRanking>

/**
 * The least edge (expected return as a fraction of entry, unleveraged: `ideaFromBars`'s edge) an idea
 * needs to be listed. strict: 0.008 (0.8 % of entry), the issue's threshold; loose: anything above 0.
 * The spec writes "strict = 0.008 … loose = 0.01": 0.01 is the endpoint's price (the table's price
 * column), and a higher threshold could not give loose its "fuller field", so loose keeps every idea
 * with a positive edge.
 */
export const MIN_EDGE: Readonly<Record<Worthwhileness, number>> = { strict: 0.008, loose: 0 }

/**
 * Whether an idea's edge passes a listing's threshold: strict edge ≥ MIN_EDGE.strict (0.008), loose edge >
 * MIN_EDGE.loose (0). A null or non-finite edge passes neither.
 */
export function meetsThreshold(idea: Pick<IdeaRead, 'edge'>, worthwhileness: Worthwhileness): boolean {
  const { edge } = idea
  if (edge === null || !Number.isFinite(edge)) return false
  const min = MIN_EDGE[worthwhileness]
  return worthwhileness === 'strict' ? edge >= min : edge > min
}

/** Why a listing left out an idea the rule found (see `skippedIdea`). */
export const skipReason = z
  .enum(['edge_below_threshold', 'category_direction_taken', 'beyond_limit'])
  .describe(
    prose`
      edge_below_threshold: its edge is under the listing’s threshold (strict lists edge ≥ 0.008, loose
      edge > 0; the value is \`threshold\`); category_direction_taken: strict lists one idea per category and
      direction, and \`keptBy\` ranked first; beyond_limit: it passed, but \`limit\` ideas ranked above it
      (\`rank\` is its place)`,
  )

/**
 * An idea the rule found (a direction, a stop, a leverage) that a listing left out, and why: GET
 * /v1/ideas's and the summary's `skipped.filtered`. Declared here, beside the rule that fills it.
 */
export const skippedIdea = z.object({
  symbol,
  category: z.string(),
  direction: z.enum(['long', 'short']),
  edge: z
    .number()
    .nullable()
    .describe('The idea’s edge (as GET /v1/ideas/asset/{sym} gives it, 6 decimals); null when not finite'),
  reason: skipReason,
  threshold: z
    .number()
    .describe(
      'The listing’s edge threshold, whatever the reason: 0.008 for strict (edge ≥ it is listed), 0 for loose (edge > it is listed)',
    ),
  keptBy: symbol
    .nullable()
    .describe(
      'category_direction_taken: the idea ranked first of that category and direction (listed, or itself beyond_limit); null otherwise',
    ),
  rank: z
    .number()
    .int()
    .nullable()
    .describe('beyond_limit: its 1-based place in the ranking without the limit (> limit); null otherwise'),
})

/** An idea a listing left out, with the reason. */
export type SkippedIdea = z.output<typeof skippedIdea>

const skipped = (
  i: IdeaRead,
  reason: SkippedIdea['reason'],
  worthwhileness: Worthwhileness,
  extra: Partial<Pick<SkippedIdea, 'keptBy' | 'rank'>> = {},
): SkippedIdea => ({
  symbol: i.symbol,
  category: i.category,
  direction: i.direction,
  edge: i.edge !== null && Number.isFinite(i.edge) ? i.edge : null,
  reason,
  threshold: MIN_EDGE[worthwhileness],
  keptBy: extra.keptBy ?? null,
  rank: extra.rank ?? null,
})

/**
 * The ideas whose edge passes `worthwhileness`'s threshold (in input order), and the others as
 * `edge_below_threshold`, highest edge first (a null edge last), then by symbol. The one
 * filter GET /v1/ideas and the summary share.
 */
export function partitionByEdge(
  ideas: readonly IdeaRead[],
  worthwhileness: Worthwhileness,
): { passing: IdeaRead[]; below: SkippedIdea[] } {
  const passing: IdeaRead[] = []
  const failing: IdeaRead[] = []
  for (const i of ideas) (meetsThreshold(i, worthwhileness) ? passing : failing).push(i)
  const below = failing
    .map((i) => skipped(i, 'edge_below_threshold', worthwhileness))
    .sort((a, b) => {
      const ea = a.edge ?? Number.NEGATIVE_INFINITY
      const eb = b.edge ?? Number.NEGATIVE_INFINITY
      if (ea !== eb) return eb > ea ? 1 : -1
      return a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0
    })
  return { passing, below }
}

/** What a ranked listing keeps and what it leaves out, with why. */
export interface IdeaSelection {
  /** The listed ideas, in ranking order, at most `limit`. */
  listed: IdeaRead[]
  /**
   * Every other idea given, once: first those that passed the threshold (category_direction_taken,
   * beyond_limit) in ranking order, then those below it (edge_below_threshold), highest edge first.
   */
  skipped: SkippedIdea[]
}

/**
 * Ranks ideas for GET /v1/ideas and says why each idea not listed is not. Pure and deterministic: the
 * same ideas in any order give the same answer.
 *
 * Worthwhileness:
 *   strict: edge ≥ 0.008, and at most one idea per (category, direction): the first in ranking order;
 *   loose: edge > 0, no per-category cap.
 * An idea with a null or non-finite edge is never listed.
 *
 * Rankings:
 *   'conviction': conviction descending, then edge descending, then symbol, then pairIndex.
 *   'edge-rate': edge × leverage ÷ holding days (the return on collateral per day to target), descending;
 *     the holding time is the basis's HOLDING_BARS (16) bars, the same for every idea of one basis, so the
 *     order is that of edge × leverage; ties by the conviction order.
 * Then the first `limit` ideas; the later ones that the cap leaves are `beyond_limit` with their place.
 *
 * Throws RangeError when `limit` is not a non-negative integer.
 */
export function selectIdeas(
  ideas: readonly IdeaRead[],
  opts: { limit: number; worthwhileness: Worthwhileness; ranking: IdeaRanking },
): IdeaSelection {
  const { limit, worthwhileness, ranking } = opts
  if (!(Number.isInteger(limit) && limit >= 0)) throw new RangeError(`limit must be a non-negative integer`)
  const { passing, below } = partitionByEdge(ideas, worthwhileness)
  const rate = (i: IdeaRead) => (i.edge ?? 0) * i.leverage
  const sorted =
    ranking === 'conviction'
      ? passing.sort(compareIdeas)
      : passing.sort((a, b) => {
          const ra = rate(a)
          const rb = rate(b)
          return ra !== rb ? (rb > ra ? 1 : -1) : compareIdeas(a, b)
        })
  const listed: IdeaRead[] = []
  const out: SkippedIdea[] = []
  // The first idea of each (category, direction) in ranking order, under strict's cap.
  const first = new Map<string, IdeaRead>()
  let place = 0
  for (const i of sorted) {
    if (worthwhileness === 'strict') {
      const key = `${i.category}\u0000${i.direction}`
      const holder = first.get(key)
      if (holder !== undefined) {
        out.push(skipped(i, 'category_direction_taken', worthwhileness, { keptBy: holder.symbol }))
        continue
      }
      first.set(key, i)
    }
    place++
    if (listed.length < limit) listed.push(i)
    else out.push(skipped(i, 'beyond_limit', worthwhileness, { rank: place }))
  }
  return { listed, skipped: [...out, ...below] }
}

/** `selectIdeas`'s listed ideas alone (see there). Throws RangeError when `limit` is not a whole number ≥ 0. */
export function rankIdeas(
  ideas: readonly IdeaRead[],
  opts: { limit: number; worthwhileness: Worthwhileness; ranking: IdeaRanking },
): IdeaRead[] {
  return selectIdeas(ideas, opts).listed
}
