import type { OpsReport } from '../store/opsReport.js'
import type { RouteStat } from './routeStats.js'

const label = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')

/** The process's memory, as `process.memoryUsage()` reports it (bytes). */
export type ProcessMemory = Pick<NodeJS.MemoryUsage, 'rss' | 'heapUsed' | 'heapTotal' | 'external'>

/**
 * `/metrics`: the dashboard's figures in Prometheus' text exposition format (0.0.4), and the process's
 * memory (`external` holds WebAssembly memory: the embedded PGlite ledger's heap lives there).
 */
export function prometheusText(
  report: OpsReport,
  stats: readonly RouteStat[],
  memory: ProcessMemory = process.memoryUsage(),
): string {
  const lines: string[] = []
  const metric = (
    name: string,
    type: 'gauge' | 'counter',
    help: string,
    samples: [string, number | bigint][],
  ) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`)
    for (const [labels, value] of samples) lines.push(`${name}${labels} ${value}`)
  }
  const byRoute = new Map<string, bigint>()
  for (const r of report.revenueByDay) byRoute.set(r.route, (byRoute.get(r.route) ?? 0n) + r.atomic)
  metric(
    'agentdesk_revenue_usdc_atomic',
    'gauge',
    'Settled and served revenue over the last 14 days, USDC atomic units, by route.',
    [...byRoute].map(([route, v]) => [`{route="${label(route)}"}`, v]),
  )
  metric('agentdesk_pending_settlements', 'gauge', 'Settlements not decided yet.', [
    ['', report.pendingSettlements],
  ])
  metric('agentdesk_unpaid_served', 'gauge', 'Calls served whose payment never landed.', [
    ['', report.unpaidServed],
  ])
  metric('agentdesk_open_channels', 'gauge', 'Open batch-settlement channels.', [['', report.openChannels]])
  metric(
    'agentdesk_credit_outstanding_usdc_atomic',
    'gauge',
    'UTIL credit not spent yet, USD atomic units.',
    [['', report.creditOutstandingAtomic]],
  )
  metric('agentdesk_referral_volume_usdc_atomic', 'gauge', 'Settled and served volume with a referrer.', [
    ['', report.referralVolumeAtomic],
  ])
  metric('agentdesk_refunds_owed', 'gauge', 'Calls settled but never served: refunds owed.', [
    ['', report.refundsOwed.calls],
  ])
  metric(
    'agentdesk_refunds_owed_usdc_atomic',
    'gauge',
    'USDC settled for calls never served, atomic units.',
    [['', report.refundsOwed.atomic]],
  )
  metric(
    'agentdesk_requests_total',
    'counter',
    'Requests answered by this instance, by route and status class.',
    stats.flatMap((s) =>
      (
        [
          ['2xx', s.ok],
          ['402', s.challenged],
          ['4xx', s.clientErrors],
          ['5xx', s.serverErrors],
        ] as const
      ).map(([cls, n]) => [`{route="${label(s.route)}",status="${cls}"}`, n] as [string, number]),
    ),
  )
  metric(
    'agentdesk_request_seconds_sum',
    'counter',
    'Time spent answering, by route.',
    stats.map((s) => [`{route="${label(s.route)}"}`, s.totalMs / 1000]),
  )
  metric('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.', [['', memory.rss]])
  metric('nodejs_heap_size_used_bytes', 'gauge', 'V8 heap used, bytes.', [['', memory.heapUsed]])
  metric('nodejs_heap_size_total_bytes', 'gauge', 'V8 heap reserved, bytes.', [['', memory.heapTotal]])
  metric(
    'nodejs_external_memory_bytes',
    'gauge',
    'Memory of objects outside the V8 heap (buffers, WebAssembly memory: the embedded ledger), bytes.',
    [['', memory.external]],
  )
  return `${lines.join('\n')}\n`
}
