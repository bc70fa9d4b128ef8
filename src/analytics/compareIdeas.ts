import type { IdeaRead } from './ideaFromBars.js'

/**
 * The conviction order of ideas, for `Array.prototype.sort`: conviction descending, then edge descending
 * (a null edge last), then symbol ascending (code-unit order), then pairIndex ascending. Total on distinct
 * (symbol, pairIndex), so a sort with it is deterministic whatever the input order.
 */
export function compareIdeas(a: IdeaRead, b: IdeaRead): number {
  if (a.conviction !== b.conviction) return b.conviction - a.conviction
  const ea = a.edge ?? Number.NEGATIVE_INFINITY
  const eb = b.edge ?? Number.NEGATIVE_INFINITY
  if (ea !== eb) return eb > ea ? 1 : -1
  if (a.symbol !== b.symbol) return a.symbol < b.symbol ? -1 : 1
  return a.pairIndex - b.pairIndex
}
