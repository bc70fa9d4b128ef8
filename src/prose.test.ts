import { describe, expect, test } from 'vitest'
import { prose } from './prose.js'

describe('prose', () => {
  test('behavior: line breaks with their indentation become one space, the ends are trimmed', () => {
    const text = prose`
      One sentence over
      two lines.
    `
    expect(text).toBe('One sentence over two lines.')
  })

  test('behavior: a blank line between parts is one space too', () => {
    const text = prose`
      First part.

      Second part.`
    expect(text).toBe('First part. Second part.')
  })

  test('behavior: spaces within a line, a leading space and interpolated values are kept', () => {
    const rule = 'keep\n  this'
    expect(prose` A  b ${rule}
      c ${2}`).toBe(` A  b keep\n  this c 2`)
  })

  test('default: a single-line template is returned as is', () => {
    expect(prose`plain`).toBe('plain')
    expect(prose``).toBe('')
  })
})
