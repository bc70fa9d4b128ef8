import type { IdeaRead } from '../../analytics/ideaFromBars.js'
import { round, significant } from '../numbers.js'

/**
 * An idea as the API shows it: prices to ten significant digits (the oracle's own precision), edge to 6
 * decimals, conviction to 4. `list` is the ranked-list form of GET /v1/ideas and the bundle, which the
 * spec gives without target, liquidation and edge (the single-asset read adds them; `open.tp` still
 * carries the target, since POST /v1/tx/risk/open needs it).
 */
export function presentIdea(idea: IdeaRead, form: 'list' | 'asset'): IdeaRead {
  const price = (v: number | null) => (v === null ? null : significant(v))
  const entry = significant(idea.entry)
  const stop = significant(idea.stop)
  const target = price(idea.target)
  const full = form === 'asset'
  return {
    ...idea,
    entry,
    stop,
    target: full ? target : null,
    liquidation: full ? price(idea.liquidation) : null,
    edge: full && idea.edge !== null ? round(idea.edge, 6) : null,
    conviction: round(idea.conviction, 4),
    open: { ...idea.open, markPrice: entry, sl: stop, tp: significant(idea.open.tp) },
  }
}
