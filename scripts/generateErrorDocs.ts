import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../src/projectRoot.js'
import { errorDocBlocks, withBlock } from './errorDocs.js'

/** Rewrites the generated error lists of docs/ from the registry and the route records (`npm run docs:errors`). */
for (const [path, block] of Object.entries(errorDocBlocks())) {
  const file = join(PROJECT_ROOT, path)
  const before = readFileSync(file, 'utf8')
  const after = withBlock(before, block, path)
  if (after !== before) writeFileSync(file, after)
  console.log(`${path}: ${after === before ? 'up to date' : 'rewritten'}`)
}
