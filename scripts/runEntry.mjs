/**
 * Runs one of the project's entries (`src/<entry>.ts`): compiled from dist/ when no source changed since
 * the last build (`npm ci`'s prepare step builds it), else the sources through tsx, which works the same but
 * starts a few seconds slower. Shared by `npm start` (scripts/start.mjs) and the `agentdesk` command
 * (scripts/agentdesk.mjs). Plain JavaScript, so nothing is transpiled on the way to the first line.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path))
    else if (/\.(ts|json)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

/** Imports `src/<entry>.ts` (e.g. `main`, `cli/main`); `onSource` is told when the sources are used. */
export async function runEntry(entry, onSource = () => {}) {
  const stamp = join(root, 'dist/.buildstamp')
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0
  if (built >= newestSource(join(root, 'src'))) {
    await import(pathToFileURL(join(root, `dist/src/${entry}.js`)).href)
    return
  }
  onSource()
  const { register } = await import('tsx/esm/api')
  register()
  await import(pathToFileURL(join(root, `src/${entry}.ts`)).href)
}
