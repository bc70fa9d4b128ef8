import pg from 'pg'

/** The machine's PostgreSQL (CI's too): docs/testing.md. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** Schemas of this suite are named `t_<run>_…`; one left behind by a crashed run older than this is dropped. */
const STALE_MS = 3_600_000
let admin: Promise<pg.Client> | undefined
let counter = 0

function adminClient(): Promise<pg.Client> {
  admin ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
    client.on('error', () => {})
    await client.connect()
    return client
  })()
  return admin
}

/**
 * A ledger database of its own for one service instance: a fresh schema in the machine's PostgreSQL,
 * reached through `search_path`. Opening one costs ~10 ms where an in-memory PGlite database costs
 * 0.5–1 s (its WASM Postgres starts from the template), and the suite opens over a hundred. PGlite
 * keeps its own tests (the store's, the process tests, shutdown).
 */
export async function testDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const client = await adminClient()
  const schema = `t_${Date.now().toString(36)}_${process.pid}_${counter++}`
  await client.query(`CREATE SCHEMA ${schema}`)
  const url = new URL(TEST_DATABASE_URL)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return {
    url: url.toString(),
    drop: async () => {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    },
  }
}

/** Drops the schemas of runs that crashed before dropping theirs (named with their creation time). */
export async function dropStaleTestSchemas(): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await client.connect()
  try {
    const { rows } = await client.query<{ name: string }>(
      "SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 't\\_%'",
    )
    for (const { name } of rows) {
      const created = Number.parseInt(name.split('_')[1] ?? '', 36)
      if (Number.isFinite(created) && Date.now() - created > STALE_MS) {
        await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`)
      }
    }
  } finally {
    await client.end()
  }
}
