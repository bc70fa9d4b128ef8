import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { CACHE_DIR } from '../projectRoot.js'
import { createDatabase } from './database.js'
import { MIGRATIONS, migrate } from './migrations.js'

/**
 * A migrated, empty PGlite database, dumped once (at install time, by `npm ci`'s prepare step) so that a
 * new data directory, or an in-memory database in a test, starts from it in well under a second instead
 * of running initdb (about 4 s on two cores). Keyed by the PGlite version (its on-disk format) and the
 * migrations; without a matching template, a database is simply initialised the slow way.
 */
export function pgliteTemplatePath(): string {
  const version = pgliteVersion()
  const migrations = createHash('sha256')
    .update(
      MIGRATIONS.map((m) => `${m.id}\n${typeof m.sql === 'string' ? m.sql : m.sql.join(';\n')}`).join('\n'),
    )
    .digest('hex')
    .slice(0, 16)
  return join(CACHE_DIR, 'pglite', `template-${version}-${migrations}.tar.gz`)
}

/** The installed PGlite's version (its package.json is not exported: found from its entry point). */
function pgliteVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir)
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version
}

export function readPgliteTemplate(): Blob | undefined {
  const path = pgliteTemplatePath()
  return existsSync(path) ? new Blob([readFileSync(path)]) : undefined
}

/** Builds the template if it is missing; returns its path. */
export async function ensurePgliteTemplate(): Promise<string> {
  const path = pgliteTemplatePath()
  if (existsSync(path)) return path
  const db = await createDatabase({ dataDir: 'memory://' })
  try {
    await migrate(db)
    const dump = await db.dumpDataDir()
    mkdirSync(join(CACHE_DIR, 'pglite'), { recursive: true })
    const partial = `${path}.${process.pid}.partial`
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()))
    renameSync(partial, path)
  } finally {
    await db.close()
  }
  return path
}
