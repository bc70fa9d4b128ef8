#!/usr/bin/env node
/**
 * The `agentdesk` command (package.json `bin`): the compiled CLI from dist/ when no source changed since
 * the last build (`npm ci` builds it), else the sources through tsx, as `npm start` does.
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
  await import(pathToFileURL(join(root, 'dist/src/cli/main.js')).href)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import(pathToFileURL(join(root, 'src/cli/main.ts')).href)
}
