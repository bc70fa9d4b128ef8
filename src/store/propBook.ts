import { lockTransfer } from './creditBook.js'
import type { Database } from './database.js'

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
}

export type ClaimResult =
  | { kind: 'claimed'; id: number }
  /** The hash authorized another action, which did not fail. */
  | { kind: 'used' }
  | { kind: 'cooldown'; retryAfterSec: number }

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
  /** Nothing (more) will be sent: the authorizing hash is free again. */
  fail(id: number, error: string): Promise<void>
  get(id: number): Promise<PropAction | undefined>
  /** The member's executed actions: their onchain record with the desk. */
  executedCount(member: `0x${string}`): Promise<number>
  /** Actions not finished (claimed, submitted): what a restart reconciles. */
  unfinished(): Promise<PropAction[]>
  /** Whether a close of position `positionId` is executed or under way. */
  closing(positionId: number): Promise<boolean>
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
    claim: (c) =>
      db.transaction(async (tx): Promise<ClaimResult> => {
        const member = c.member.toLowerCase()
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`prop:${member}`])
        const last = await tx.query<{ age: string | null }>(
          `SELECT extract(epoch FROM now() - max(created_at))::text AS age FROM prop_actions
           WHERE member = $1 AND status <> 'failed'`,
          [member],
        )
        const age = last.rows[0]?.age
        if (age !== null && age !== undefined && Number(age) < c.cooldownSec) {
          return { kind: 'cooldown', retryAfterSec: Math.max(1, Math.ceil(c.cooldownSec - Number(age))) }
        }
        // A transfer credited as a top-up paid already (one treasury address for both, or a burn).
        await lockTransfer(tx, c.authTxHash)
        const credited = await tx.query('SELECT 1 FROM credit_topups WHERE tx_hash = $1', [
          c.authTxHash.toLowerCase(),
        ])
        if (credited.rows.length > 0) return { kind: 'used' }
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
      }),
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
