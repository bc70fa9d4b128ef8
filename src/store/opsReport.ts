import type { Queryable } from './database.js'

/** What the operator's dashboard and `/metrics` show from the books (USDC amounts in atomic units). */
export interface OpsReport {
  /** Settled and served calls (a settled call never answered is owed back, not revenue). */
  revenueByDay: { day: string; route: string; calls: number; atomic: bigint }[]
  /** Settlements refused or closed unpaid, by their error code. */
  refusalsByCode: { code: string; count: number }[]
  pendingSettlements: number
  /** Served calls the chain never paid for: the operator's loss, to look into. */
  unpaidServed: number
  openChannels: number
  creditOutstandingAtomic: bigint
  /** Settled and served volume with a referrer. */
  referralVolumeAtomic: bigint
  /**
   * Settled but never served: the transfer landed and the answer never left (a crash mid-settlement, a
   * caller gone, a 503 whose transfer landed later). Charged for nothing: refunds the operator owes.
   * A row answered a moment ago can show here until its served mark, written after the answer, lands.
   */
  refundsOwed: { calls: number; atomic: bigint }
  deskActions: { status: string; count: number }[]
}

/** The dashboard's figures, in one round of queries over the ledger, the channels, the credit and desk rows. */
export async function readOpsReport(db: Queryable, days = 14): Promise<OpsReport> {
  const [revenue, refusals, counts, desk] = await Promise.all([
    db.query<{ day: string; route: string; calls: string; atomic: string }>(
      `SELECT to_char(date_trunc('day', created_at), 'YYYY-MM-DD') AS day, route, count(*)::text AS calls,
              sum(amount)::text AS atomic
       FROM payments WHERE status = 'settled' AND served AND created_at > now() - make_interval(days => $1)
       GROUP BY 1, 2 ORDER BY 1, 2`,
      [days],
    ),
    db.query<{ code: string; count: string }>(
      `SELECT COALESCE(error_code, 'unknown') AS code, count(*)::text AS count FROM payments
       WHERE status IN ('failed', 'unpaid') GROUP BY 1 ORDER BY 2 DESC`,
    ),
    db.query<{
      pending: string
      unpaid: string
      channels: string
      credit: string
      referrals: string
      refunds: string
      refundsAtomic: string
    }>(
      `SELECT (SELECT count(*) FROM payments WHERE status = 'pending')::text AS pending,
              (SELECT count(*) FROM payments WHERE status = 'unpaid')::text AS unpaid,
              (SELECT count(*) FROM batch_channels WHERE record IS NOT NULL)::text AS channels,
              (SELECT COALESCE(sum(balance), 0) FROM credit_balances)::text AS credit,
              (SELECT COALESCE(sum(amount), 0) FROM payments
                 WHERE status = 'settled' AND served AND referrer IS NOT NULL)::text AS referrals,
              (SELECT count(*) FROM payments WHERE status = 'settled' AND NOT served)::text AS refunds,
              (SELECT COALESCE(sum(amount), 0) FROM payments WHERE status = 'settled' AND NOT served)::text
                AS "refundsAtomic"`,
    ),
    db.query<{ status: string; count: string }>(
      'SELECT status, count(*)::text AS count FROM prop_actions GROUP BY 1 ORDER BY 1',
    ),
  ])
  const c = counts.rows[0]
  return {
    revenueByDay: revenue.rows.map((r) => ({
      day: r.day,
      route: r.route,
      calls: Number(r.calls),
      atomic: BigInt(r.atomic),
    })),
    refusalsByCode: refusals.rows.map((r) => ({ code: r.code, count: Number(r.count) })),
    pendingSettlements: Number(c?.pending ?? 0),
    unpaidServed: Number(c?.unpaid ?? 0),
    openChannels: Number(c?.channels ?? 0),
    creditOutstandingAtomic: BigInt(c?.credit ?? 0),
    referralVolumeAtomic: BigInt(c?.referrals ?? 0),
    refundsOwed: { calls: Number(c?.refunds ?? 0), atomic: BigInt(c?.refundsAtomic ?? 0) },
    deskActions: desk.rows.map((r) => ({ status: r.status, count: Number(r.count) })),
  }
}
