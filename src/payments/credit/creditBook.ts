import type { Database } from '../../store/database.js'
import { lockTransfer } from '../../store/transferLock.js'

/** A UTIL transfer to the credit recipient, valued at its block (what a top-up credits). */
export interface TopUp {
  txHash: `0x${string}`
  wallet: `0x${string}`
  /** UTIL base units (18 decimals) the wallet sent to the recipient in that transaction. */
  utilAmount: bigint
  /** Its value at the block, in USDC atomic units (micro-USD): what is credited. */
  usdAtomic: bigint
  blockNumber: bigint
  /** The block's timestamp (unix seconds). */
  blockTime: number
}

/** A call paid by credit: the authorization that proved the wallet, and what it cost. */
export interface CreditDebit {
  wallet: `0x${string}`
  nonce: `0x${string}`
  route: string
  /** USDC atomic units: half the posted price, never surged. */
  amount: bigint
  /** The authorization's validBefore (unix seconds): past it, nobody can submit it onchain. */
  validBefore: number
}

export type DebitStatus = 'held' | 'spent' | 'released' | 'restored'

export interface DebitRecord extends CreditDebit {
  id: number
  status: DebitStatus
  createdAt: Date
}

export interface TopUpRecord extends TopUp {
  createdAt: Date
}

/** What `hold` decided: debited (the balance after), or not, and why. */
export type HoldResult =
  | { kind: 'held'; id: number; balance: bigint }
  /** The balance does not cover the cost: the call pays in USDC instead. */
  | { kind: 'short'; balance: bigint }
  /** The authorization already paid a call (by credit, or by a settlement in the ledger). */
  | { kind: 'used' }

/**
 * The durable book of the UTIL credit rail (migration 004): top-ups, balances, debits. Every change of a
 * balance is one transaction with the row that explains it, and every write is conditional on the row's
 * state, so two instances (or a retry after a crash) can run the same step and only one of them counts.
 */
export interface CreditBook {
  /** Credits a top-up once: undefined when the hash was credited before (by any instance). */
  topUp(topUp: TopUp): Promise<{ balance: bigint } | undefined>
  /**
   * Debits `amount` when the balance covers it (one conditional update: never below zero) and records the
   * authorization as used, in one statement; the debit is `held` until `spend` or `release`. A wallet
   * without enough credit (or none) is `short`, at the cost of one index probe.
   */
  hold(debit: CreditDebit): Promise<HoldResult>
  /** The call was served: the debit stands. False when the row was not held (released meanwhile). */
  spend(id: number): Promise<boolean>
  /** The call was not served: the amount goes back. False when the row was not held. */
  release(id: number): Promise<boolean>
  /** Its authorization was used onchain after all (USDC paid for the call): the amount goes back. */
  restore(id: number): Promise<boolean>
  balance(wallet: `0x${string}`): Promise<bigint>
  /** Debits whose authorization may still be submitted onchain (`validBefore` ≥ `sinceSec`), or still held. */
  open(sinceSec: number): Promise<DebitRecord[]>
  recentTopUps(wallet: `0x${string}`, limit: number): Promise<TopUpRecord[]>
  recentDebits(wallet: `0x${string}`, limit: number): Promise<DebitRecord[]>
}

interface DebitRow {
  id: number | string
  wallet: string
  nonce: string
  route: string
  amount: string
  status: DebitStatus
  valid_before: string
  created_at: Date | string
}

const DEBIT_COLUMNS =
  'id, wallet, nonce, route, amount::text AS amount, status, valid_before::text AS valid_before, created_at'

export function createCreditBook(db: Database): CreditBook {
  const giveBack = (id: number, from: DebitStatus, to: DebitStatus) => moveBack(db, id, from, to)

  return {
    topUp: (t) => creditTopUp(db, t),

    async hold(d) {
      // One statement (migration 004's credit_hold): the conditional debit and the authorization's row.
      try {
        const { rows } = await db.query<{
          outcome: 'held' | 'short'
          debit_id: string | null
          balance_after: string
        }>(
          'SELECT outcome, debit_id::text AS debit_id, balance_after::text AS balance_after FROM credit_hold($1, $2, $3, $4, $5)',
          [d.wallet.toLowerCase(), d.nonce.toLowerCase(), d.route, d.amount.toString(), d.validBefore],
        )
        const row = rows[0]
        if (row === undefined) throw new Error('credit_hold returned no row')
        return row.outcome === 'held'
          ? { kind: 'held', id: Number(row.debit_id), balance: BigInt(row.balance_after) }
          : { kind: 'short', balance: BigInt(row.balance_after) }
      } catch (err) {
        // Raised inside the function, which rolled its debit back: the authorization paid a call before.
        if (String((err as { message?: unknown }).message ?? '').includes('credit_authorization_used')) {
          return { kind: 'used' }
        }
        throw err
      }
    },

    async spend(id) {
      const { rows } = await db.query(
        `UPDATE credit_debits SET status = 'spent', updated_at = now() WHERE id = $1 AND status = 'held' RETURNING id`,
        [id],
      )
      return rows.length === 1
    },
    release: (id) => giveBack(id, 'held', 'released'),
    // A held debit whose authorization landed onchain is given back the same way.
    restore: async (id) => (await giveBack(id, 'spent', 'restored')) || giveBack(id, 'held', 'restored'),

    balance: (wallet) => balanceIn(db, wallet.toLowerCase()),

    async open(sinceSec) {
      const { rows } = await db.query<DebitRow>(
        `SELECT ${DEBIT_COLUMNS} FROM credit_debits
         WHERE status = 'held' OR (status = 'spent' AND valid_before >= $1) ORDER BY id`,
        [sinceSec],
      )
      return rows.map(toDebit)
    },
    async recentTopUps(wallet, limit) {
      const { rows } = await db.query<{
        tx_hash: string
        wallet: string
        util_amount: string
        usd_atomic: string
        block_number: string
        block_time: string
        created_at: Date | string
      }>(
        `SELECT tx_hash, wallet, util_amount::text AS util_amount, usd_atomic::text AS usd_atomic,
                block_number::text AS block_number, block_time::text AS block_time, created_at
         FROM credit_topups WHERE wallet = $1 ORDER BY created_at DESC, tx_hash LIMIT $2`,
        [wallet.toLowerCase(), limit],
      )
      return rows.map((r) => ({
        txHash: r.tx_hash as `0x${string}`,
        wallet: r.wallet as `0x${string}`,
        utilAmount: BigInt(r.util_amount),
        usdAtomic: BigInt(r.usd_atomic),
        blockNumber: BigInt(r.block_number),
        blockTime: Number(r.block_time),
        createdAt: new Date(r.created_at),
      }))
    },
    async recentDebits(wallet, limit) {
      const { rows } = await db.query<DebitRow>(
        `SELECT ${DEBIT_COLUMNS} FROM credit_debits WHERE wallet = $1 ORDER BY id DESC LIMIT $2`,
        [wallet.toLowerCase(), limit],
      )
      return rows.map(toDebit)
    },
  }
}

/** Moves a debit from `from` to `to` and gives its amount back, in one transaction; false if not in `from`. */
function moveBack(db: Database, id: number, from: DebitStatus, to: DebitStatus): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ wallet: string; amount: string }>(
      `UPDATE credit_debits SET status = $3, updated_at = now() WHERE id = $1 AND status = $2
       RETURNING wallet, amount::text AS amount`,
      [id, from, to],
    )
    const row = rows[0]
    if (row === undefined) return false
    await tx.query(
      'UPDATE credit_balances SET balance = balance + $2, updated_at = now() WHERE wallet = $1',
      [row.wallet, row.amount],
    )
    return true
  })
}

/** Credits a top-up once (the transfer not used by the prop desk either): its balance after, or undefined. */
function creditTopUp(db: Database, t: TopUp): Promise<{ balance: bigint } | undefined> {
  return db.transaction(async (tx) => {
    // One transfer pays once across both of its uses (a top-up, a desk action): where the operator
    // points both recipients at one address, or the credit recipient at the burn address, the hash is
    // taken under one lock and looked up in the other registry too.
    await lockTransfer(tx, t.txHash)
    const desk = await tx.query(`SELECT 1 FROM prop_actions WHERE auth_tx_hash = $1 AND status <> 'failed'`, [
      t.txHash.toLowerCase(),
    ])
    if (desk.rows.length > 0) return undefined
    const inserted = await tx.query(
      `INSERT INTO credit_topups (tx_hash, wallet, util_amount, usd_atomic, block_number, block_time)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tx_hash) DO NOTHING RETURNING tx_hash`,
      [
        t.txHash.toLowerCase(),
        t.wallet.toLowerCase(),
        t.utilAmount.toString(),
        t.usdAtomic.toString(),
        t.blockNumber.toString(),
        t.blockTime,
      ],
    )
    if (inserted.rows.length === 0) return undefined
    const { rows } = await tx.query<{ balance: string }>(
      `INSERT INTO credit_balances (wallet, balance) VALUES ($1, $2)
       ON CONFLICT (wallet) DO UPDATE SET balance = credit_balances.balance + EXCLUDED.balance, updated_at = now()
       RETURNING balance::text AS balance`,
      [t.wallet.toLowerCase(), t.usdAtomic.toString()],
    )
    return { balance: BigInt(rows[0]?.balance ?? 0) }
  })
}

async function balanceIn(q: Pick<Database, 'query'>, wallet: string): Promise<bigint> {
  const { rows } = await q.query<{ balance: string }>(
    'SELECT balance::text AS balance FROM credit_balances WHERE wallet = $1',
    [wallet],
  )
  return BigInt(rows[0]?.balance ?? 0)
}

function toDebit(r: DebitRow): DebitRecord {
  return {
    id: Number(r.id),
    wallet: r.wallet as `0x${string}`,
    nonce: r.nonce as `0x${string}`,
    route: r.route,
    amount: BigInt(r.amount),
    status: r.status,
    validBefore: Number(r.valid_before),
    createdAt: new Date(r.created_at),
  }
}
