import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { StoreUnavailableError } from '../errors.js'

/** What repositories need from SQL: one dialect (PostgreSQL), whether embedded or a server. */
export interface Queryable {
  query<Row extends object>(sql: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** Runs `fn` on one connection inside BEGIN … COMMIT (ROLLBACK on throw). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** PostgreSQL server; when absent, an embedded PGlite database in `dataDir`. */
  databaseUrl?: string | undefined
  /** PGlite directory; `memory://` keeps the database in memory (tests). */
  dataDir: string
}

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl !== undefined) return createPostgres(options.databaseUrl)
  return createPglite(options.dataDir)
}

async function createPglite(dataDir: string): Promise<Database> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true })
  const db = await PGlite.create(dataDir)
  const query: Queryable['query'] = async (sql, params) => {
    const result = await db.query(sql, params as unknown[] | undefined)
    return { rows: result.rows as never[] }
  }
  return {
    kind: 'pglite',
    query,
    transaction: (fn) =>
      db.transaction(async (tx) =>
        fn({
          query: async (sql, params) => ({
            rows: (await tx.query(sql, params as unknown[] | undefined)).rows as never[],
          }),
        }),
      ),
    close: () => db.close(),
  }
}

/** A server that cannot be reached is an outage (503), not a bug; SQL errors stay as they are. */
function unreachable(err: unknown): unknown {
  const code = (err as { code?: unknown }).code
  const connection =
    typeof code === 'string' &&
    (/^(ECONN|ETIMEDOUT|ENOTFOUND|EPIPE)/.test(code) || code.startsWith('57P') || code.startsWith('08'))
  const message = err instanceof Error ? err.message : ''
  return connection || /Connection terminated|timeout exceeded when trying to connect/i.test(message)
    ? new StoreUnavailableError('database', { cause: err })
    : err
}

async function createPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 })
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  await pool.query('select 1')
  return {
    kind: 'postgres',
    query: async (sql, params) => {
      try {
        return { rows: (await pool.query(sql, params as unknown[] | undefined)).rows }
      } catch (err) {
        throw unreachable(err)
      }
    },
    async transaction(fn) {
      const client = await pool.connect().catch((err: unknown) => {
        throw unreachable(err)
      })
      try {
        await client.query('BEGIN')
        const result = await fn({
          query: async (sql, params) => ({
            rows: (await client.query(sql, params as unknown[] | undefined)).rows,
          }),
        })
        await client.query('COMMIT')
        return result
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {})
        throw err
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}
