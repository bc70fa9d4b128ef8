/**
 * `npm start`: the compiled service from dist/ (built by `npm ci`'s prepare step, or `npm run build`)
 * when no source changed since that build, else the sources through tsx, which works the same but
 * starts a few seconds slower. Plain JavaScript, so nothing is transpiled on the way to the first line.
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

const stamp = join(root, 'dist/.buildstamp')
const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0
if (built >= newestSource(join(root, 'src'))) {
  await import(pathToFileURL(join(root, 'dist/src/main.js')).href)
} else {
  process.stderr.write(
    `${JSON.stringify({ level: 40, msg: 'sources changed since the last build: starting from source (npm run build makes the start faster)' })}\n`,
  )
  const { register } = await import('tsx/esm/api')
  register()
  await import(pathToFileURL(join(root, 'src/main.ts')).href)
}
