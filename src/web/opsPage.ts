import type { OpsReport } from '../store/opsReport.js'
import { barChart } from './barChart.js'
import { esc, page } from './html.js'
import type { RouteStat } from './routeStats.js'

const usd = (atomic: bigint) => `$${(Number(atomic) / 1e6).toFixed(3)}`

/** `/ops`: the operator's view of the books and of this instance's traffic since it started. */
export function opsPage(report: OpsReport, stats: readonly RouteStat[]): string {
  const byDay = new Map<string, bigint>()
  const byRoute = new Map<string, { calls: number; atomic: bigint }>()
  for (const r of report.revenueByDay) {
    byDay.set(r.day, (byDay.get(r.day) ?? 0n) + r.atomic)
    const route = byRoute.get(r.route) ?? { calls: 0, atomic: 0n }
    byRoute.set(r.route, { calls: route.calls + r.calls, atomic: route.atomic + r.atomic })
  }
  const revenue = [...byDay.values()].reduce((a, b) => a + b, 0n)
  const card = (label: string, value: string) => `<div class="card">${esc(label)}<b>${esc(value)}</b></div>`
  return page(
    'agentdesk operations',
    `<h1>Operations</h1>
<div class="cards">
${card('revenue, 14 days (settled, served)', usd(revenue))}
${card('pending settlements', String(report.pendingSettlements))}
${card('served, unpaid', String(report.unpaidServed))}
${card('refunds owed (settled, not served)', `${report.refundsOwed.calls} · ${usd(report.refundsOwed.atomic)}`)}
${card('open channels', String(report.openChannels))}
${card('credit outstanding', usd(report.creditOutstandingAtomic))}
${card('referral volume', usd(report.referralVolumeAtomic))}
</div>
<h2>Revenue by day (USD)</h2>
${barChart(
  [...byDay.entries()].map(([day, atomic]) => ({ label: day.slice(5), value: Number(atomic) / 1e6 })),
  'revenue by day',
)}
<h2>Revenue by route</h2>
<table><thead><tr><th>route</th><th>settled calls</th><th>revenue</th></tr></thead><tbody>
${[...byRoute.entries()]
  .sort((a, b) => Number(b[1].atomic - a[1].atomic))
  .map(
    ([route, r]) =>
      `<tr><td><code>${esc(route)}</code></td><td>${r.calls}</td><td>${usd(r.atomic)}</td></tr>`,
  )
  .join('\n')}
</tbody></table>
<h2>Calls and latency per route (this instance)</h2>
<table><thead><tr><th>route</th><th>calls</th><th>2xx</th><th>402</th><th>4xx</th><th>5xx</th><th>mean ms</th><th>max ms</th></tr></thead><tbody>
${stats
  .map(
    (s) =>
      `<tr><td><code>${esc(s.route)}</code></td><td>${s.calls}</td><td>${s.ok}</td><td>${s.challenged}</td>` +
      `<td>${s.clientErrors}</td><td>${s.serverErrors}</td><td>${(s.totalMs / Math.max(1, s.calls)).toFixed(1)}</td>` +
      `<td>${s.maxMs.toFixed(1)}</td></tr>`,
  )
  .join('\n')}
</tbody></table>
<h2>Settlements refused, by code</h2>
<table><thead><tr><th>code</th><th>count</th></tr></thead><tbody>
${report.refusalsByCode.map((r) => `<tr><td><code>${esc(r.code)}</code></td><td>${r.count}</td></tr>`).join('\n')}
</tbody></table>
<h2>Prop desk actions</h2>
<p>${report.deskActions.map((d) => `${esc(d.status)}: ${d.count}`).join(' · ') || 'none yet'}</p>
<p class="muted">Also as Prometheus text at <code>/metrics</code> (the same token).</p>
<form method="post" action="/ops/logout"><button type="submit">Sign out</button></form>`,
  )
}

/** The login form `/ops` shows without a valid token: no figure of any kind. */
export function opsLogin(failed: boolean): string {
  return page(
    'agentdesk operations: sign in',
    `<h1>Operations</h1>${failed ? '<p>That token is not the one configured.</p>' : ''}
<form method="post" action="/ops/login"><label>Token <input type="password" name="token" autocomplete="off"></label>
<button type="submit">Sign in</button></form>`,
  )
}
