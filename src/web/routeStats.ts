/** One route's traffic on this instance since it started. */
export interface RouteStat {
  route: string
  calls: number
  ok: number
  challenged: number
  clientErrors: number
  serverErrors: number
  totalMs: number
  maxMs: number
}

/**
 * Calls and latency per route, counted in this process (what `/ops` and `/metrics` show besides the
 * books). Unpaid 402s answered by the fast path before the app are not in it.
 */
export function createRouteStats() {
  const stats = new Map<string, RouteStat>()
  return {
    record(route: string, status: number, ms: number): void {
      const s = stats.get(route) ?? {
        route,
        calls: 0,
        ok: 0,
        challenged: 0,
        clientErrors: 0,
        serverErrors: 0,
        totalMs: 0,
        maxMs: 0,
      }
      s.calls++
      if (status < 400) s.ok++
      else if (status === 402) s.challenged++
      else if (status < 500) s.clientErrors++
      else s.serverErrors++
      s.totalMs += ms
      s.maxMs = Math.max(s.maxMs, ms)
      stats.set(route, s)
    },
    snapshot: (): RouteStat[] => [...stats.values()].sort((a, b) => a.route.localeCompare(b.route)),
  }
}

export type RouteStats = ReturnType<typeof createRouteStats>
