/** At most this many routes are listed. */
export const MAX_ARBITRAGE_ROUTES = 10

/**
 * The routes worth taking, best first: only netUsd > 0, ranked by netUsd descending, ties broken by the
 * path (joined with spaces) ascending so the same routes always come out in the same order; at most
 * `limit`, numbered from 1.
 */
export function rankArbitrageRoutes<R extends { netUsd: number; path: readonly string[] }>(
  routes: readonly R[],
  limit = MAX_ARBITRAGE_ROUTES,
): (R & { rank: number })[] {
  const key = (r: R) => r.path.join(' ')
  return routes
    .filter((r) => r.netUsd > 0)
    .sort((a, b) => b.netUsd - a.netUsd || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
    .slice(0, limit)
    .map((r, i) => ({ ...r, rank: i + 1 }))
}
