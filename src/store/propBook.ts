import type { Database, Queryable } from './database.js'
import { lockTransfer } from './transferLock.js'

export type PropStatus = 'claimed' | 'submitted' | 'executed' | 'failed'

/** One desk action: who it was for, what authorized it, what the desk sent and how it ended. */
export interface PropAction {
  id: number
  member: `0x${string}`
  action: string
  params: Record<string, unknown>
  /** The UTIL transfer that authorized it (a payment to the desk, or a burn). */
  authTxHash: `0x${string}`
  authKind: 'pay' | 'burn'
  utilAmount: bigint
  /** How many desk transactions the action takes (its builder's steps). */
  plannedSteps: number
  status: PropStatus
  /** The desk's transactions, in order, each recorded before it was broadcast. */
  deskTxs: `0x${string}`[]
  result: Record<string, unknown> | null
  error: string | null
  createdAt: Date
}

export type PropClaim = Pick<
  PropAction,
  'member' | 'action' | 'params' | 'authTxHash' | 'authKind' | 'utilAmount' | 'plannedSteps'
> & {
  /** The member's cooldown: no other action of theirs (not failed) may be younger than this. */
  cooldownSec: number
  /** A trade.open's exposure limits, checked under the same locks (see `OpenExposure`). */
  exposure?: ExposureCheck
}

/**
 * What a trade.open adds to the desk's open positions, and the limits: the member's open collateral and
 * notional (their allotment), and the desk's open collateral across members. Open positions are the
 * trade.open rows not failed (claimed, submitted, executed), less `closedAtVenue`: executed opens the
 * caller found no longer open at the venue (closed by any means, or their order cancelled; venueClosed).
 */
export interface ExposureCheck {
  collateralUsdc: number
  notionalUsd: number
  memberMaxCollateralUsdc: number
  memberMaxNotionalUsd: number
  deskMaxCollateralUsdc: number
  closedAtVenue: readonly number[]
}

/** The open positions' totals, as a claim counted them under its locks. */
export interface OpenExposure {
  memberCollateralUsdc: number
  memberNotionalUsd: number
  deskCollateralUsdc: number
}

/** Which limit an open of `x` would pass beside the `open` positions (the member's first), if any. */
export function exposureOver(x: ExposureCheck, open: OpenExposure): 'member' | 'desk' | undefined {
  const over = (total: number, max: number) => total > max + 1e-9
  if (
    over(open.memberCollateralUsdc + x.collateralUsdc, x.memberMaxCollateralUsdc) ||
    over(open.memberNotionalUsd + x.notionalUsd, x.memberMaxNotionalUsd)
  ) {
    return 'member'
  }
  return over(open.deskCollateralUsdc + x.collateralUsdc, x.deskMaxCollateralUsdc) ? 'desk' : undefined
}

/** A trade.open row that did not fail: open, unless the venue closed it or cancelled its order. */
export interface OpenPositionRow {
  id: number
  member: `0x${string}`
  collateralUsdc: number
  leverage: number
  status: PropStatus
  result: Record<string, unknown> | null
}

export type ClaimResult =
  | { kind: 'claimed'; id: number }
  /** The hash authorized another action, which did not fail. */
  | { kind: 'used' }
  | { kind: 'cooldown'; retryAfterSec: number }
  /** The open would take the member's or the desk's open positions past their limit. */
  | { kind: 'exposure'; scope: 'member' | 'desk'; open: OpenExposure }

/**
 * The prop desk's durable rows (migration 005). A claim is taken under a lock on the member (a transaction
 * advisory lock), so the cooldown holds across concurrent requests and instances sharing the database, and
 * the authorizing hash is unique, so two instances cannot both run one transfer's action.
 */
export interface PropBook {
  claim(claim: PropClaim): Promise<ClaimResult>
  /** Seconds since the member's last action that did not fail; undefined when there is none. */
  lastActionAgeSec(member: `0x${string}`): Promise<number | undefined>
  /** Records a desk transaction about to be broadcast (status `submitted`). */
  addDeskTx(id: number, hash: `0x${string}`): Promise<void>
  finish(id: number, result: Record<string, unknown>): Promise<void>
  /**
   * The venue's trade index for an executed open's MARKET order, once its fill is seen (`result.position
   * .tradeIndex`): later reads check the trade itself instead of searching the fill's log again.
   */
  recordFill(id: number, tradeIndex: number): Promise<void>
  /** Nothing (more) will be sent: the authorizing hash is free again. */
  fail(id: number, error: string): Promise<void>
  get(id: number): Promise<PropAction | undefined>
  /** The member's executed actions: their onchain record with the desk. */
  executedCount(member: `0x${string}`): Promise<number>
  /** Actions not finished (claimed, submitted): what a restart reconciles. */
  unfinished(): Promise<PropAction[]>
  /** Whether a close of position `positionId` is executed or under way. */
  closing(positionId: number): Promise<boolean>
  /** The trade.open rows that did not fail, of one member or of every member (open unless the venue says not). */
  openPositions(member?: `0x${string}`): Promise<OpenPositionRow[]>
  /** The open totals as a claim would count them now (no lock: what a quote shows). */
  openExposure(member: `0x${string}`, closedAtVenue: readonly number[]): Promise<OpenExposure>
}

/**
 * trade.open rows that did not fail: open unless the venue says otherwise (the caller's `closedAtVenue`). A
 * desk close does not count until the venue filled it: a close order can be cancelled, and a close that
 * fails would otherwise have freed room for opens meanwhile.
 */
const OPEN_ROWS = `SELECT id, member, (params->>'collateralUsdc')::float8 AS collateral,
    (params->>'leverage')::float8 AS leverage, status, result
  FROM prop_actions o
  WHERE o.action = 'trade.open' AND o.status <> 'failed'`

/** Sums of OPEN_ROWS for `$1` (the member) and for the desk, leaving out the ids in `$2`. */
const EXPOSURE = `SELECT
    coalesce(sum(collateral) FILTER (WHERE member = $1), 0)::float8 AS member_collateral,
    coalesce(sum(collateral * leverage) FILTER (WHERE member = $1), 0)::float8 AS member_notional,
    coalesce(sum(collateral), 0)::float8 AS desk_collateral
  FROM (${OPEN_ROWS}) positions WHERE NOT (id = ANY($2::bigint[]))`

async function exposureOf(
  q: Queryable,
  member: string,
  closedAtVenue: readonly number[],
): Promise<OpenExposure> {
  const { rows } = await q.query<{
    member_collateral: number
    member_notional: number
    desk_collateral: number
  }>(EXPOSURE, [member, closedAtVenue.map(String)])
  const r = rows[0]
  return {
    memberCollateralUsdc: Number(r?.member_collateral ?? 0),
    memberNotionalUsd: Number(r?.member_notional ?? 0),
    deskCollateralUsdc: Number(r?.desk_collateral ?? 0),
  }
}

interface Row {
  id: number | string
  member: string
  action: string
  params: Record<string, unknown>
  auth_tx_hash: string
  auth_kind: 'pay' | 'burn'
  util_amount: string
  planned_steps: number
  status: PropStatus
  desk_txs: string[]
  result: Record<string, unknown> | null
  error: string | null
  created_at: Date | string
}

const COLUMNS =
  'id, member, action, params, auth_tx_hash, auth_kind, util_amount::text AS util_amount, planned_steps, status, desk_txs, result, error, created_at'

export function createPropBook(db: Database): PropBook {
  return {
    claim: (c) => claimAction(db, c),
    async lastActionAgeSec(member) {
      const { rows } = await db.query<{ age: string | null }>(
        `SELECT extract(epoch FROM now() - max(created_at))::text AS age FROM prop_actions
         WHERE member = $1 AND status <> 'failed'`,
        [member.toLowerCase()],
      )
      const age = rows[0]?.age
      return age === null || age === undefined ? undefined : Number(age)
    },
    async addDeskTx(id, hash) {
      await db.query(
        `UPDATE prop_actions SET desk_txs = desk_txs || to_jsonb($2::text), status = 'submitted',
           updated_at = now() WHERE id = $1`,
        [id, hash],
      )
    },
    async finish(id, result) {
      await db.query(
        `UPDATE prop_actions SET status = 'executed', result = $2, updated_at = now()
         WHERE id = $1 AND status IN ('claimed', 'submitted')`,
        [id, JSON.stringify(result)],
      )
    },
    async recordFill(id, tradeIndex) {
      await db.query(
        `UPDATE prop_actions SET result = jsonb_set(result, '{position,tradeIndex}', to_jsonb($2::int)),
           updated_at = now()
         WHERE id = $1 AND status = 'executed' AND result ? 'position'`,
        [id, tradeIndex],
      )
    },
    async fail(id, error) {
      await db.query(
        `UPDATE prop_actions SET status = 'failed', error = $2, updated_at = now()
         WHERE id = $1 AND status IN ('claimed', 'submitted')`,
        [id, error],
      )
    },
    async get(id) {
      const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM prop_actions WHERE id = $1`, [id])
      const row = rows[0]
      return row === undefined ? undefined : toAction(row)
    },
    async executedCount(member) {
      const { rows } = await db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM prop_actions WHERE member = $1 AND status = 'executed'`,
        [member.toLowerCase()],
      )
      return Number(rows[0]?.n ?? 0)
    },
    async unfinished() {
      const { rows } = await db.query<Row>(
        `SELECT ${COLUMNS} FROM prop_actions WHERE status IN ('claimed', 'submitted') ORDER BY id`,
      )
      return rows.map(toAction)
    },
    async openPositions(member) {
      const { rows } = await db.query<{
        id: number | string
        member: string
        collateral: number
        leverage: number
        status: PropStatus
        result: Record<string, unknown> | null
      }>(
        `${OPEN_ROWS}${member === undefined ? '' : ' AND o.member = $1'} ORDER BY id`,
        member === undefined ? [] : [member.toLowerCase()],
      )
      return rows.map((r) => ({
        id: Number(r.id),
        member: r.member as `0x${string}`,
        collateralUsdc: Number(r.collateral),
        leverage: Number(r.leverage),
        status: r.status,
        result: r.result,
      }))
    },
    openExposure: (member, closedAtVenue) => exposureOf(db, member.toLowerCase(), closedAtVenue),
    async closing(positionId) {
      const { rows } = await db.query(
        `SELECT 1 FROM prop_actions WHERE action = 'trade.close' AND status <> 'failed'
           AND params->>'positionId' = $1`,
        [String(positionId)],
      )
      return rows.length > 0
    },
  }
}

function toAction(r: Row): PropAction {
  return {
    id: Number(r.id),
    member: r.member as `0x${string}`,
    action: r.action,
    params: r.params,
    authTxHash: r.auth_tx_hash as `0x${string}`,
    authKind: r.auth_kind,
    utilAmount: BigInt(r.util_amount),
    plannedSteps: Number(r.planned_steps),
    status: r.status,
    deskTxs: r.desk_txs as `0x${string}`[],
    result: r.result,
    error: r.error,
    createdAt: new Date(r.created_at),
  }
}

/**
 * Claims one action for a member, under the desk's lock (opens) and the member's: the cool-down, the
 * authorizing transfer unused by either registry, the exposure within the allotments; then the row.
 */
function claimAction(db: Database, c: PropClaim): Promise<ClaimResult> {
  return db.transaction(async (tx): Promise<ClaimResult> => {
    const member = c.member.toLowerCase()
    // An open counts against the desk's total: opens take the desk's lock first (then the member's), so
    // two opens on any instances never both see room for one.
    if (c.exposure !== undefined) await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['prop:desk'])
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`prop:${member}`])
    // clock_timestamp(), not now(): now() is this transaction's start, taken before it waited for the
    // lock, so a row another claim committed meanwhile would look younger than nothing (negative age).
    const last = await tx.query<{ age: string | null }>(
      `SELECT extract(epoch FROM clock_timestamp() - max(created_at))::text AS age FROM prop_actions
       WHERE member = $1 AND status <> 'failed'`,
      [member],
    )
    const age = last.rows[0]?.age
    if (c.cooldownSec > 0 && age !== null && age !== undefined && Number(age) < c.cooldownSec) {
      return { kind: 'cooldown', retryAfterSec: Math.max(1, Math.ceil(c.cooldownSec - Number(age))) }
    }
    // A transfer credited as a top-up paid already (one treasury address for both, or a burn).
    await lockTransfer(tx, c.authTxHash)
    const credited = await tx.query('SELECT 1 FROM credit_topups WHERE tx_hash = $1', [
      c.authTxHash.toLowerCase(),
    ])
    if (credited.rows.length > 0) return { kind: 'used' }
    // A hash that authorized an action that did not fail is `used`, whatever the exposure says.
    const taken = await tx.query(
      `SELECT 1 FROM prop_actions WHERE auth_tx_hash = $1 AND status <> 'failed'`,
      [c.authTxHash.toLowerCase()],
    )
    if (taken.rows.length > 0) return { kind: 'used' }
    const x = c.exposure
    if (x !== undefined) {
      const open = await exposureOf(tx, member, x.closedAtVenue)
      const scope = exposureOver(x, open)
      if (scope !== undefined) return { kind: 'exposure', scope, open }
    }
    const { rows } = await tx.query<{ id: number | string }>(
      `INSERT INTO prop_actions (member, action, params, auth_tx_hash, auth_kind, util_amount, planned_steps, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'claimed')
       ON CONFLICT (auth_tx_hash) DO UPDATE
         SET member = EXCLUDED.member, action = EXCLUDED.action, params = EXCLUDED.params,
             auth_kind = EXCLUDED.auth_kind, util_amount = EXCLUDED.util_amount,
             planned_steps = EXCLUDED.planned_steps, status = 'claimed',
             desk_txs = '[]', result = NULL, error = NULL, created_at = now(), updated_at = now()
         WHERE prop_actions.status = 'failed'
       RETURNING id`,
      [
        member,
        c.action,
        JSON.stringify(c.params),
        c.authTxHash.toLowerCase(),
        c.authKind,
        c.utilAmount.toString(),
        c.plannedSteps,
      ],
    )
    const row = rows[0]
    return row === undefined ? { kind: 'used' } : { kind: 'claimed', id: Number(row.id) }
  })
}
