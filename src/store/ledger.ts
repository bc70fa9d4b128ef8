import type { Queryable } from './database.js'

/**
 * `pending`: opened before the settlement, outcome not known yet. `settled`: the transfer is onchain.
 * `failed`: no money moved and nothing was served. `unpaid`: the caller was served but the chain shows
 * no payment (cancelled authorization, reverted or missing transfer): the operator's loss, kept visible.
 */
export type PaymentStatus = 'pending' | 'settled' | 'failed' | 'unpaid'

export interface PaymentRecord {
  id: number
  payer: string
  nonce: string
  route: string
  /** USDC atomic units. */
  amount: bigint
  referrer: string | null
  txHash: string | null
  status: PaymentStatus
  /** Whether the caller got the data (a settled row with served false was paid for nothing: refund it). */
  served: boolean
  /** The wallet the authorization pays (null on rows written before it was recorded). */
  payTo: string | null
  errorCode: string | null
  /** Unix seconds after which the authorization can no longer settle. */
  validBefore: number
  /** The x402 scheme that paid: `exact` (its own transfer) or `batch-settlement` (a voucher, claimed later). */
  scheme: string
  createdAt: Date
}

export interface OpenPayment {
  payer: string
  nonce: string
  route: string
  amount: bigint
  referrer: string | undefined
  payTo: string
  validBefore: number
}

/** A call paid by a committed voucher (or a deposit's first charge) on a batch-settlement channel. */
export interface VoucherCall {
  payer: string
  /** The channel id: with `cumulative`, the row's unique key. */
  channelId: string
  /** The channel's charged total after this call (USDC atomic units). */
  cumulative: bigint
  route: string
  amount: bigint
  referrer: string | undefined
  payTo: string
  scheme: string
}

export interface ReferralStanding {
  /** Wallets with a settled, served call through the referral. */
  referredWallets: number
  /** Settled and served: a call settled but never answered is a refund the operator owes, not a paid call. */
  paidCalls: number
  /**
   * Calls served, or that may still turn out served, whose settlement is not final: the outcome and the
   * served mark are written just after the response, so a row counts here while the chain has not decided
   * and it is served, or it is still within its authorization's life with no failure recorded (an answer
   * may be leaving; a settled row whose served mark has not landed). Past `validBefore`, a row never
   * answered is not pending: its caller got nothing. A call just served is counted here or in `paidCalls`.
   */
  pendingCalls: number
  /** USDC atomic units, of the settled and served calls. */
  paidVolume: bigint
}

/**
 * The durable record of every settlement. One row per authorization (payer, nonce): the unique key is
 * the replay guard that survives restarts and spans instances sharing one database.
 */
export interface Ledger {
  /**
   * Opens the row for a payment about to be settled, its handler having succeeded. The row is not
   * served until the gate decides to answer (`settle` or `markPending` with `served`, written as the
   * answer leaves): a process killed while the settlement was in flight never answered, so a transfer
   * that lands anyway is booked settled and unserved, a refund candidate (issue 28's crash drill).
   * Undefined when the authorization already has a row that is not `failed`: it was served before; or
   * when it paid a call by UTIL credit.
   */
  open(payment: OpenPayment): Promise<number | undefined>
  /**
   * Records a call paid by a voucher, settled for the books (the voucher is within the deposit, committed
   * in the channel's storage; its claim comes later, in a batch). Keyed by channel and cumulative amount, so
   * one charge is never booked twice; false when it already was.
   */
  recordVoucher(call: VoucherCall): Promise<boolean>
  /**
   * A channel that cannot be claimed beyond `claimed` (its payer withdrew what was served, or its signatures
   * stopped verifying): its voucher calls past that amount are closed `unpaid` with `errorCode` (served,
   * never paid). Returns how many.
   */
  closeUnclaimedVouchers(channelId: string, claimed: bigint, errorCode: string): Promise<number>
  /** Such calls, closed with `errorCode`, settled again up to `claimed` (the channel was claimed after all). */
  reopenClaimedVouchers(channelId: string, claimed: bigint, errorCode: string): Promise<number>
  /** The transfer is onchain; `served` when the caller is being answered (the gate, not the reconciler). */
  settle(id: number, txHash: string, served?: boolean): Promise<void>
  /** Nothing moved and nothing was served (a refused settlement). */
  fail(id: number, errorCode: string, txHash?: string): Promise<void>
  /** Served with its settlement's outcome unknown (not seen included within the bounded wait). */
  markPending(id: number, txHash: string | undefined, served: boolean): Promise<void>
  /**
   * Not served, and the outcome is unknown (the facilitator failed in a way that may follow a
   * broadcast): the row stays pending for the reconciler, recorded as unserved.
   */
  withhold(id: number, errorCode: string): Promise<void>
  /**
   * The chain shows this row's payment never arrived: `unpaid` if the caller was served, else `failed`.
   */
  closeUnpaid(id: number, errorCode: string, txHash?: string): Promise<void>
  pending(): Promise<PaymentRecord[]>
  byPayer(payer: string): Promise<PaymentRecord[]>
  referralStanding(referrer: string): Promise<ReferralStanding>
  /** Waits for the writes in flight (outcomes recorded after their response), e.g. before closing. */
  drain(): Promise<void>
}

interface Row {
  id: number | string
  payer: string
  nonce: string
  route: string
  amount: string
  referrer: string | null
  tx_hash: string | null
  status: PaymentStatus
  served: boolean
  pay_to: string | null
  error_code: string | null
  valid_before: string
  scheme: string
  created_at: Date | string
}

const COLUMNS =
  'id, payer, nonce, route, amount::text AS amount, referrer, tx_hash, status, served, pay_to, error_code, valid_before::text AS valid_before, scheme, created_at'

export function createLedger(db: Queryable): Ledger {
  const inFlight = new Set<Promise<unknown>>()
  const tracked = <T>(write: Promise<T>): Promise<T> => {
    inFlight.add(write)
    write.then(
      () => inFlight.delete(write),
      () => inFlight.delete(write),
    )
    return write
  }
  const update = (
    id: number,
    status: PaymentStatus,
    txHash: string | null,
    errorCode: string | null,
    served?: boolean,
  ) => updateStatus(db, id, status, txHash, errorCode, served)
  return {
    async drain() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight])
    },
    open: (p) => openPayment(db, p),
    recordVoucher: (call) =>
      tracked(
        db
          .query<{ id: number | string }>(
            `INSERT INTO payments (payer, nonce, route, amount, referrer, status, valid_before, pay_to, served, scheme)
             VALUES ($1, $2, $3, $4, $5, 'settled', 0, $6, true, $7)
             ON CONFLICT (payer, nonce) DO NOTHING
             RETURNING id`,
            [
              call.payer.toLowerCase(),
              `${call.channelId.toLowerCase()}:${call.cumulative}`,
              call.route,
              call.amount.toString(),
              call.referrer?.toLowerCase() ?? null,
              call.payTo.toLowerCase(),
              call.scheme,
            ],
          )
          .then((r) => r.rows.length === 1),
      ),
    async closeUnclaimedVouchers(channelId, claimed, errorCode) {
      await Promise.allSettled([...inFlight])
      const { rows } = await db.query<{ id: number | string }>(
        `UPDATE payments SET status = 'unpaid', error_code = $3, updated_at = now()
         WHERE scheme = 'batch-settlement' AND status = 'settled' AND split_part(nonce, ':', 1) = $1
           AND split_part(nonce, ':', 2)::numeric > $2::numeric
         RETURNING id`,
        [channelId.toLowerCase(), claimed.toString(), errorCode],
      )
      return rows.length
    },
    async reopenClaimedVouchers(channelId, claimed, errorCode) {
      const { rows } = await db.query<{ id: number | string }>(
        `UPDATE payments SET status = 'settled', error_code = NULL, updated_at = now()
         WHERE scheme = 'batch-settlement' AND status = 'unpaid' AND error_code = $3
           AND split_part(nonce, ':', 1) = $1 AND split_part(nonce, ':', 2)::numeric <= $2::numeric
         RETURNING id`,
        [channelId.toLowerCase(), claimed.toString(), errorCode],
      )
      return rows.length
    },
    settle: (id, txHash, served) => tracked(update(id, 'settled', txHash, null, served)),
    fail: (id, errorCode, txHash) => tracked(update(id, 'failed', txHash ?? null, errorCode, false)),
    markPending: (id, txHash, served) => tracked(update(id, 'pending', txHash ?? null, null, served)),
    withhold: (id, errorCode) => update(id, 'pending', null, errorCode, false),
    async closeUnpaid(id, errorCode, txHash) {
      await db.query(
        `UPDATE payments SET status = CASE WHEN served THEN 'unpaid' ELSE 'failed' END,
           tx_hash = COALESCE($3, tx_hash), error_code = $2, updated_at = now() WHERE id = $1`,
        [id, errorCode, txHash ?? null],
      )
    },
    async pending() {
      const { rows } = await db.query<Row>(
        `SELECT ${COLUMNS} FROM payments WHERE status = 'pending' ORDER BY id`,
      )
      return rows.map(toRecord)
    },
    async byPayer(payer) {
      const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM payments WHERE payer = $1 ORDER BY id`, [
        payer.toLowerCase(),
      ])
      return rows.map(toRecord)
    },
    async referralStanding(referrer) {
      // `alive`: the authorization can still settle, so the gate may be answering it right now (its
      // served mark is written after the answer leaves). Past it, an unserved row was never answered.
      const { rows } = await db.query<{ wallets: string; calls: string; volume: string; pending: string }>(
        `WITH r AS (SELECT payer, amount, status, served, error_code,
                           valid_before > extract(epoch FROM now()) AS alive
                    FROM payments WHERE referrer = $1 AND status IN ('settled', 'pending'))
         SELECT count(DISTINCT payer) FILTER (WHERE status = 'settled' AND served)::text AS wallets,
                count(*) FILTER (WHERE status = 'settled' AND served)::text AS calls,
                COALESCE(sum(amount) FILTER (WHERE status = 'settled' AND served), 0)::text AS volume,
                count(*) FILTER (WHERE (status = 'pending' AND served)
                                    OR (NOT served AND alive AND (status = 'settled' OR error_code IS NULL)))::text
                  AS pending
         FROM r`,
        [referrer.toLowerCase()],
      )
      const row = rows[0]
      return {
        referredWallets: Number(row?.wallets ?? 0),
        paidCalls: Number(row?.calls ?? 0),
        paidVolume: BigInt(row?.volume ?? 0),
        pendingCalls: Number(row?.pending ?? 0),
      }
    },
  }
}

function toRecord(r: Row): PaymentRecord {
  return {
    id: Number(r.id),
    payer: r.payer,
    nonce: r.nonce,
    route: r.route,
    amount: BigInt(r.amount),
    referrer: r.referrer,
    txHash: r.tx_hash,
    status: r.status,
    served: r.served,
    payTo: r.pay_to,
    errorCode: r.error_code,
    validBefore: Number(r.valid_before),
    scheme: r.scheme,
    createdAt: new Date(r.created_at),
  }
}

/** Opens a payment's pending row before its settlement: its id, or undefined when the authorization is taken. */
async function openPayment(db: Queryable, p: OpenPayment): Promise<number | undefined> {
  // A failed row means the authorization never moved money, so it may be tried again. An
  // authorization that paid a call by UTIL credit (a debit not given back) is used as well.
  const { rows } = await db.query<{ id: number | string }>(
    `INSERT INTO payments (payer, nonce, route, amount, referrer, status, valid_before, pay_to, served)
       SELECT $1, $2, $3, $4::bigint, $5, 'pending', $6::bigint, $7, false
       WHERE NOT EXISTS (
         SELECT 1 FROM credit_debits WHERE wallet = $1 AND nonce = $2 AND status <> 'released')
       ON CONFLICT (payer, nonce) DO UPDATE
         SET route = EXCLUDED.route, amount = EXCLUDED.amount, referrer = EXCLUDED.referrer,
             pay_to = EXCLUDED.pay_to, status = 'pending', error_code = NULL, tx_hash = NULL, served = false,
             updated_at = now()
         WHERE payments.status = 'failed'
       RETURNING id`,
    [
      p.payer.toLowerCase(),
      p.nonce.toLowerCase(),
      p.route,
      p.amount.toString(),
      p.referrer?.toLowerCase() ?? null,
      p.validBefore,
      p.payTo.toLowerCase(),
    ],
  )
  const row = rows[0]
  return row === undefined ? undefined : Number(row.id)
}

/** A row's status moved (a settled row stays settled). */
async function updateStatus(
  db: Queryable,
  id: number,
  status: PaymentStatus,
  txHash: string | null,
  errorCode: string | null,
  served?: boolean,
): Promise<void> {
  // A settled row stays settled: the gate's served-pending write runs off the response path and can land
  // after the reconciler settled the row; it may still record that the call was served.
  await db.query(
    `UPDATE payments SET status = CASE WHEN status = 'settled' THEN status ELSE $2 END,
       tx_hash = CASE WHEN status = 'settled' THEN tx_hash ELSE COALESCE($3, tx_hash) END,
       error_code = CASE WHEN status = 'settled' THEN error_code ELSE $4 END,
       served = COALESCE($5, served), updated_at = now() WHERE id = $1`,
    [id, status, txHash, errorCode, served ?? null],
  )
}
