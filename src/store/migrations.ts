import type { Database } from './database.js'

/**
 * The schema, as ordered migrations shared by PGlite and PostgreSQL. Append only: a migration that has
 * run anywhere is never edited.
 */
/**
 * One migration: SQL statements separated by `;`, or a list of statements taken as they are (a function
 * body holds semicolons of its own).
 */
export interface Migration {
  id: string
  sql: string | readonly string[]
}

export const MIGRATIONS: readonly Migration[] = [
  {
    id: '001_payments',
    sql: `
      CREATE TABLE payments (
        id            BIGSERIAL PRIMARY KEY,
        payer         TEXT NOT NULL,
        nonce         TEXT NOT NULL,
        route         TEXT NOT NULL,
        amount        BIGINT NOT NULL CHECK (amount > 0),
        referrer      TEXT,
        tx_hash       TEXT,
        status        TEXT NOT NULL CHECK (status IN ('pending', 'settled', 'failed')),
        error_code    TEXT,
        valid_before  BIGINT NOT NULL,
        created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
        UNIQUE (payer, nonce)
      );
      CREATE INDEX payments_referrer ON payments (referrer) WHERE referrer IS NOT NULL;
      CREATE INDEX payments_pending ON payments (status) WHERE status = 'pending';
    `,
  },
  {
    // 'unpaid': the caller was served (settlement pending) but the chain shows no payment: a cancelled
    // authorization, a reverted or missing transfer. Kept, not deleted, so the operator sees it.
    id: '002_served_and_unpaid',
    sql: `
      ALTER TABLE payments ADD COLUMN served BOOLEAN NOT NULL DEFAULT false;
      ALTER TABLE payments ADD COLUMN pay_to TEXT;
      UPDATE payments SET served = true WHERE status IN ('settled', 'pending');
      ALTER TABLE payments DROP CONSTRAINT payments_status_check;
      ALTER TABLE payments ADD CONSTRAINT payments_status_check
        CHECK (status IN ('pending', 'settled', 'failed', 'unpaid'))
    `,
  },
  {
    // x402 batch-settlement: the server's record of each payment channel (ChannelStorage, one JSON record
    // per channel; NULL once the channel is closed), and the scheme a ledger row was paid with. A voucher-paid
    // call's row has no transfer of its own: the voucher is claimed with others in one transaction later.
    id: '003_batch_settlement',
    sql: `
      CREATE TABLE batch_channels (
        channel_id  TEXT PRIMARY KEY,
        record      JSONB,
        updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      ALTER TABLE payments ADD COLUMN scheme TEXT NOT NULL DEFAULT 'exact'
    `,
  },
  {
    // The UTIL prepaid credit rail (issue 25). A top-up's transaction hash is its primary key: two instances
    // cannot both credit it. Credit is kept in USDC atomic units (micro-USD) at the top-up block's rate and
    // never goes negative. A debit is keyed by the authorization (wallet, nonce), as a settlement is: one
    // authorization pays one call, whichever rail it paid on.
    //   held: debited, the call is running; spent: the call was served; released: not served, credit
    //   given back; restored: the authorization was later used onchain (USDC paid), credit given back.
    id: '004_util_credit',
    sql: [
      `CREATE TABLE credit_topups (
        tx_hash       TEXT PRIMARY KEY,
        wallet        TEXT NOT NULL,
        util_amount   NUMERIC(78, 0) NOT NULL CHECK (util_amount > 0),
        usd_atomic    BIGINT NOT NULL CHECK (usd_atomic >= 0),
        block_number  BIGINT NOT NULL,
        block_time    BIGINT NOT NULL,
        created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
      'CREATE INDEX credit_topups_wallet ON credit_topups (wallet)',
      `CREATE TABLE credit_balances (
        wallet      TEXT PRIMARY KEY,
        balance     BIGINT NOT NULL CHECK (balance >= 0),
        updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE credit_debits (
        id            BIGSERIAL PRIMARY KEY,
        wallet        TEXT NOT NULL,
        nonce         TEXT NOT NULL,
        route         TEXT NOT NULL,
        amount        BIGINT NOT NULL CHECK (amount > 0),
        status        TEXT NOT NULL CHECK (status IN ('held', 'spent', 'released', 'restored')),
        valid_before  BIGINT NOT NULL,
        created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
        UNIQUE (wallet, nonce)
      )`,
      "CREATE INDEX credit_debits_open ON credit_debits (valid_before) WHERE status IN ('held', 'spent')",
    ],
  },
  {
    // The prop desk (issue 25). Each action is authorized by one UTIL transfer (a payment to the desk or a
    // burn), whose hash is unique: a failed action frees it again. The desk's transactions are recorded,
    // in order, before each is broadcast, so a restart finds every one it may have sent.
    //   claimed: authorized, nothing sent yet; submitted: desk transactions in flight; executed: all mined
    //   and successful; failed: nothing (more) will be sent, the hash is free again.
    id: '005_prop_desk',
    sql: `
      CREATE TABLE prop_actions (
        id            BIGSERIAL PRIMARY KEY,
        member        TEXT NOT NULL,
        action        TEXT NOT NULL,
        params        JSONB NOT NULL,
        auth_tx_hash  TEXT NOT NULL UNIQUE,
        auth_kind     TEXT NOT NULL CHECK (auth_kind IN ('pay', 'burn')),
        util_amount   NUMERIC(78, 0) NOT NULL,
        planned_steps INT NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('claimed', 'submitted', 'executed', 'failed')),
        desk_txs      JSONB NOT NULL DEFAULT '[]',
        result        JSONB,
        error         TEXT,
        created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at    TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE INDEX prop_actions_member ON prop_actions (member, created_at);
      CREATE INDEX prop_actions_open ON prop_actions (status) WHERE status IN ('claimed', 'submitted')
    `,
  },
  {
    // A debit in one statement (one round trip on the paid hot path), atomic as a statement is: the
    // conditional update first (a wallet without credit costs one index probe), then the authorization
    // recorded as used. An authorization that paid a call already (a settlement, or a debit not given
    // back) raises, which rolls the debit back.
    // A migration of its own: 004 had run on shared databases before the function was written.
    id: '006_credit_hold',
    sql: [
      `CREATE FUNCTION credit_hold(p_wallet TEXT, p_nonce TEXT, p_route TEXT, p_amount BIGINT, p_valid_before BIGINT)
       RETURNS TABLE (outcome TEXT, debit_id BIGINT, balance_after BIGINT) LANGUAGE plpgsql AS $$
       DECLARE
         v_after BIGINT;
         v_id BIGINT;
       BEGIN
         UPDATE credit_balances SET balance = balance - p_amount, updated_at = now()
           WHERE wallet = p_wallet AND balance >= p_amount RETURNING balance INTO v_after;
         IF NOT FOUND THEN
           RETURN QUERY SELECT 'short'::TEXT, NULL::BIGINT,
             COALESCE((SELECT b.balance FROM credit_balances b WHERE b.wallet = p_wallet), 0::BIGINT);
           RETURN;
         END IF;
         IF EXISTS (SELECT 1 FROM payments p WHERE p.payer = p_wallet AND p.nonce = p_nonce AND p.status <> 'failed') THEN
           RAISE EXCEPTION 'credit_authorization_used';
         END IF;
         INSERT INTO credit_debits AS d (wallet, nonce, route, amount, status, valid_before)
           VALUES (p_wallet, p_nonce, p_route, p_amount, 'held', p_valid_before)
           ON CONFLICT (wallet, nonce) DO UPDATE
             SET route = EXCLUDED.route, amount = EXCLUDED.amount, status = 'held', updated_at = now()
             WHERE d.status = 'released'
           RETURNING d.id INTO v_id;
         IF v_id IS NULL THEN
           RAISE EXCEPTION 'credit_authorization_used';
         END IF;
         RETURN QUERY SELECT 'held'::TEXT, v_id, v_after;
       END
       $$`,
    ],
  },
  {
    // The prop desk's index of UTIL sent to the desk and burned (issue 38): per sender and recipient, the
    // total of the token's Transfer events read so far, and the next block to read. Advanced a window of
    // blocks at a time, the sums and the cursor in one transaction, so a restart or a second instance
    // never counts a block twice and never skips one. `name` says which token and recipients it follows.
    id: '007_util_send_index',
    sql: `
      CREATE TABLE log_index_cursors (
        name        TEXT PRIMARY KEY,
        next_block  BIGINT NOT NULL CHECK (next_block >= 0),
        updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE TABLE util_sends (
        index_name  TEXT NOT NULL REFERENCES log_index_cursors (name),
        sender      TEXT NOT NULL,
        recipient   TEXT NOT NULL,
        total       NUMERIC(78, 0) NOT NULL CHECK (total >= 0),
        PRIMARY KEY (index_name, sender, recipient)
      )
    `,
  },
]

/** Arbitrary constant: instances starting together take turns applying migrations. */
const MIGRATION_LOCK = 8_453_402

export async function migrate(db: Database): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    )
    const done = new Set(
      (await tx.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id),
    )
    const applied: string[] = []
    for (const m of MIGRATIONS) {
      if (done.has(m.id)) continue
      const statements = typeof m.sql === 'string' ? m.sql.split(';') : m.sql
      for (const statement of statements.map((s) => s.trim())) {
        if (statement !== '') await tx.query(statement)
      }
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id])
      applied.push(m.id)
    }
    return applied
  })
}
