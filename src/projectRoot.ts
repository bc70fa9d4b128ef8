import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The checkout's root (the directory holding package.json), found from this module's location, so the
 * same code finds the committed artifacts and the caches whether it runs from `src/` (tsx, tests) or
 * from the compiled `dist/src/` that `npm start` runs.
 */
export const PROJECT_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)))

function findRoot(from: string): string {
  let dir = from
  for (;;) {
    // dist/ has no package.json of its own, so the first one up is the project's.
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src'))) return dir
    const up = dirname(dir)
    if (up === dir) throw new Error(`no project root above ${from}`)
    dir = up
  }
}

/** Caches built at install time or on first use: never committed, safe to delete. */
export const CACHE_DIR = join(PROJECT_ROOT, '.cache')
