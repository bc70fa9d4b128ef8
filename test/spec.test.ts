import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { routeTable } from '../src/routes/table.js'

const vendored = new URL('../docs/api-spec.md', import.meta.url)
const shared = new URL('../../shared/spec/api-spec.md', import.meta.url)
const spec = readFileSync(vendored, 'utf8')

/** Rows of the spec's endpoint tables in sections A–D: method, path and the reference-listing price. */
function specEndpoints(): { method: string; path: string; priceUsd: number | null }[] {
  const out: { method: string; path: string; priceUsd: number | null }[] = []
  const sections = spec.split(/^### /m)
  for (const section of sections) {
    const letter = section.match(/^([ABCD])\. /)?.[1]
    if (!letter) continue
    // Section C states one price for all its rows, in its heading.
    const sectionPrice =
      letter === 'C' ? Number(section.match(/Reference listing price ([0-9.]+)/)?.[1]) : undefined
    for (const line of section.split('\n')) {
      const cells = line.split('|').map((c) => c.trim())
      const first = cells[1] ?? ''
      const m = first.match(/^(GET |POST )?(\/v1\S*)$/)
      if (!m) continue
      const method = m[1]?.trim() ?? (letter === 'C' ? 'POST' : 'GET')
      const priceCell = letter === 'C' ? String(sectionPrice) : (cells[2] ?? '')
      const priceUsd = priceCell.startsWith('free') ? null : Number(priceCell.match(/^([0-9.]+)/)?.[1])
      out.push({ method, path: m[2]!, priceUsd })
    }
  }
  return out
}

describe('spec conformance', () => {
  test('behavior: the vendored spec is the shared one', () => {
    if (existsSync(shared)) expect(spec).toBe(readFileSync(shared, 'utf8'))
  })

  test('behavior: the spec tables list 17 + 8 + 12 + 5 endpoints', () => {
    expect(specEndpoints()).toHaveLength(42)
  })

  test('behavior: every path of sections A–D is routed, with the spec reference price', () => {
    for (const e of specEndpoints()) {
      const route = routeTable.find((r) => r.method === e.method && r.path === e.path)
      expect(route, `${e.method} ${e.path}`).toBeDefined()
      expect(route?.priceUsd, `${e.method} ${e.path}`).toBe(e.priceUsd)
    }
  })

  test('behavior: the section E families are routed', () => {
    const paths = routeTable.map((r) => `${r.method} ${r.path}`)
    for (const p of [
      '/v1/tx/burn',
      '/v1/tx/lp/aero/add',
      '/v1/tx/lp/aero/remove',
      '/v1/tx/lp/uni/add',
      '/v1/tx/lp/uni/remove',
      '/v1/tx/lp/uni/collect',
      '/v1/tx/fixed/lend',
      '/v1/tx/fixed/borrow',
      '/v1/tx/fixed/repay',
      '/v1/tx/fixed/supply-collateral',
      '/v1/tx/fixed/withdraw-collateral',
      '/v1/tx/fixed/withdraw',
      '/v1/tx/risk/modify',
      '/v1/tx/risk/cancel',
    ]) {
      expect(paths).toContain(`POST ${p}`)
    }
  })
})
