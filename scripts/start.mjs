/**
 * `npm start`: the compiled service from dist/ (built by `npm ci`'s prepare step, or `npm run build`)
 * when no source changed since that build, else the sources through tsx (scripts/runEntry.mjs).
 */
import { runEntry } from './runEntry.mjs'

await runEntry('main', () =>
  process.stderr.write(
    `${JSON.stringify({ level: 40, msg: 'sources changed since the last build: starting from source (npm run build makes the start faster)' })}\n`,
  ),
)
