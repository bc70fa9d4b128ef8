import { describe, expect, test } from 'vitest'
import { routeTable } from '../src/routes/table.js'
import { fuzzCases, inputNames } from './helpers/fuzzCases.js'
import { testApp } from './helpers/testApp.js'

const SEED = 20261121
const cases = fuzzCases(SEED)

describe('fuzz', () => {
  test(`behavior: 1200 malformed requests never produce a 5xx, and every 400 names a field (seed ${SEED})`, async () => {
    // Priced routes answer 402 before validation (covered in test/payments); to reach validation
    // without a wallet, this app serves the same table with every route free.
    const { app } = await testApp(
      {},
      routeTable.map((r) => ({ ...r, priceUsd: null })),
    )
    const statuses = new Map<number, number>()
    for (let i = 0; i < 1200; i++) {
      const c = cases.http()
      const res = await app.request(`http://x${c.url}`, c.init)
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
      const where = `case ${i}: ${c.method} ${c.url.slice(0, 200)} → ${res.status}`
      // 502: a valid read reached its upstream adapter, and no upstream runs in this test.
      expect([200, 400, 404, 405, 501, 502], where).toContain(res.status)
      if (res.status === 200) continue
      const body = (await res.json()) as { error?: { code: string; field?: string; message: string } }
      expect(body.error?.code, where).toMatch(/^[a-z_]+$/)
      if (res.status === 400) {
        const field = body.error?.field
        expect(field, where).toBeTruthy()
        const known = c.route ? [...inputNames(c.route), 'body'] : ['body']
        const namesKnownField = known.includes(String(field).split('.')[0]!)
        const namesUnknownField = /is not allowed/.test(body.error?.message ?? '')
        expect(namesKnownField || namesUnknownField, `${where}: field ${field}`).toBe(true)
      }
    }
    // The corpus must mostly exercise validation, not fall through to the handlers.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(600)
    expect([...statuses.keys()].every((s) => s < 500 || s === 501 || s === 502)).toBe(true)
    // 1200 requests: seconds when idle, much longer beside a CPU-heavy neighbour.
  }, 120_000)
})
