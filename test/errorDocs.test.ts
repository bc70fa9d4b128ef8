import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { errorDocBlocks, withBlock } from '../scripts/errorDocs.js'
import { PROJECT_ROOT } from '../src/projectRoot.js'

/** The error lists of docs/ are what the registry and the route records say now. */
describe('generated error lists in docs/', () => {
  test.each(Object.entries(errorDocBlocks()))('behavior: %s is up to date', (path, block) => {
    const text = readFileSync(join(PROJECT_ROOT, path), 'utf8')
    expect(text === withBlock(text, block, path), `${path} is stale: run npm run docs:errors`).toBe(true)
  })
})
