import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { StoreUnavailableError } from '../errors.js'
import { UnsupportedTarEntryError, unpackTarGz } from './unpackTarGz.js'

/** What repositories need from SQL: one dialect (PostgreSQL), whether embedded or a server. */
export interface Queryable {
  query<Row extends object>(sql: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** The whole embedded database as a gzipped tarball (PGlite only: the start-up template). */
  dumpDataDir(): Promise<Blob>
  /** Runs `fn` on one connection inside BEGIN … COMMIT (ROLLBACK on throw). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** PostgreSQL server; when absent, an embedded PGlite database in `dataDir`. */
  databaseUrl?: string | undefined
  /** PGlite directory; `memory://` keeps the database in memory (tests). */
  dataDir: string
  /**
   * A PGlite dump to start a new database from (the migrated template): used only when `dataDir` is
   * new or empty, never over existing data.
   */
  template?: Blob | undefined
}

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl !== undefined) return createPostgres(options.databaseUrl)
  return createPglite(options.dataDir, options.template)
}

/**
 * PostgreSQL's default shared_buffers (128 MB) is resident in the process once touched; the embedded
 * ledger's working set is a few MB, so 8 MB of buffers keeps all of it cached and the service's RSS
 * ~75 MB lower (the soak, bench/soak.ts). The server profile (DATABASE_URL) is configured on the server.
 */
const PGLITE_MEMORY_PARAMS = ['-c', 'shared_buffers=8MB']

async function createPglite(dataDir: string, template: Blob | undefined): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://')
  // An unpack cut short (a full disk, the process killed) leaves its marker: the directory is redone.
  const unfinished = !inMemory && existsSync(join(dataDir, UNPACKING))
  if (unfinished) emptyDir(dataDir)
  const fresh = inMemory || unfinished || !existsSync(dataDir) || readdirSync(dataDir).length === 0
  if (!inMemory) mkdirSync(dataDir, { recursive: true })
  // A new directory on disk is unpacked here, outside PGlite's WebAssembly heap (see unpackTarGz).
  const unpacked = fresh && !inMemory && template !== undefined && (await unpackTemplate(template, dataDir))
  const db = await PGlite.create({
    dataDir,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_MEMORY_PARAMS],
    ...(fresh && !unpacked && template !== undefined ? { loadDataDir: template } : {}),
  })
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
    dumpDataDir: () => db.dumpDataDir('gzip'),
    close: () => db.close(),
  }
}

/** Present in a data directory while the template is being unpacked into it. */
const UNPACKING = '.agentdesk-unpacking'

/** Removes what `dir` holds, not `dir` itself (it may be a mount point). */
function emptyDir(dir: string): void {
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true })
}

/**
 * Unpacks the template into a new data directory; false (the directory emptied) if it holds entries we do
 * not read. Marked while under way: a directory with some of its files is not new, and PGlite would fail
 * on it at every start (the attack review); an unpack that throws empties it now, one killed at the next start.
 */
async function unpackTemplate(template: Blob, dataDir: string): Promise<boolean> {
  const archive = new Uint8Array(await template.arrayBuffer())
  writeFileSync(join(dataDir, UNPACKING), '')
  try {
    unpackTarGz(archive, dataDir)
  } catch (err) {
    emptyDir(dataDir)
    if (!(err instanceof UnsupportedTarEntryError)) throw err
    return false
  }
  rmSync(join(dataDir, UNPACKING))
  return true
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
      // A checked-out client whose connection drops emits 'error' (beside failing its query): unheard, it
      // would crash the process; the broken client is destroyed on release.
      let broken = false
      const dropped = () => {
        broken = true
      }
      client.on('error', dropped)
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
        client.removeListener('error', dropped)
        // A broken connection is destroyed, never handed to the next transaction.
        client.release(broken)
      }
    },
    dumpDataDir: () => Promise.reject(new Error('a PostgreSQL server has no data directory to dump')),
    close: () => pool.end(),
  }
}
