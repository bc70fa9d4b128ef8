import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { BUILD_ERRORS, BuildRefusedError } from './builderErrors.js'

// Every source of the builders, their sub-folders (one per route family) included.
const dir = new URL('./', import.meta.url)
const sources = (readdirSync(dir, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'builderErrors.ts')
  .map((f) => readFileSync(new URL(f, dir), 'utf8'))
  .join('\n')

describe('BUILD_ERRORS', () => {
  test('behavior: a refusal answers its code’s status, with the specifics and the no-charge note', () => {
    const err = new BuildRefusedError('book_too_thin', 'The bids hold 5 USDC.', 'assets', {
      availableAssets: '5',
    })
    expect(err.status).toBe(BUILD_ERRORS.book_too_thin.status)
    expect(err.toBody()).toEqual({
      error: {
        code: 'book_too_thin',
        message: 'The bids hold 5 USDC. Nothing was charged.',
        field: 'assets',
        details: { availableAssets: '5' },
      },
    })
  })

  test('behavior: every code is snake_case, answers 422 and is refused somewhere (no dead codes)', () => {
    for (const [code, { status, meaning }] of Object.entries(BUILD_ERRORS)) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/)
      expect(status, code).toBe(422)
      expect(meaning.length, code).toBeGreaterThan(10)
      if (['simulation_reverted', 'insufficient_balance', 'unlisted_target'].includes(code)) continue
      expect(sources, `${code} is never refused`).toContain(`'${code}'`)
    }
  })
})
