import { describe, expect, test } from 'vitest'
import { routeTable } from '../src/routes/table.js'
import { samplePath, testApp } from './helpers/testApp.js'

const { app } = await testApp()
const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`
const expected = routeTable.map((r) => key(r.method, r.path)).sort()

describe('route table', () => {
  test('behavior: no duplicate endpoint or operation id', () => {
    expect(new Set(expected).size).toBe(routeTable.length)
    expect(new Set(routeTable.map((r) => r.id)).size).toBe(routeTable.length)
  })

  test('behavior: the router serves every endpoint under its method and no other', async () => {
    for (const route of routeTable) {
      const url = `http://x${samplePath(route.path)}`
      const res = await app.request(url, route.method === 'POST' ? { method: 'POST', body: '{}' } : {})
      expect([200, 400, 402, 501], `${route.method} ${route.path}`).toContain(res.status)
      const wrong = await app.request(url, { method: route.method === 'GET' ? 'PUT' : 'GET' })
      expect(wrong.status, `wrong method on ${route.path}`).toBe(405)
    }
  })

  test('behavior: /v1 lists exactly the table, with prices and tiers', async () => {
    const catalog = (await (await app.request('http://x/v1')).json()) as {
      endpoints: { method: string; path: string; priceUsd: number | null; tier: string }[]
    }
    expect(catalog.endpoints.map((e) => key(e.method, e.path)).sort()).toEqual(expected)
    for (const route of routeTable) {
      const entry = catalog.endpoints.find((e) => key(e.method, e.path) === key(route.method, route.path))
      expect(entry?.priceUsd).toBe(route.priceUsd)
      expect(entry?.tier).toBe(route.tier)
    }
  })

  test('behavior: /v1/openapi.json describes exactly the table, priced paths carry x-x402', async () => {
    const doc = (await (await app.request('http://x/v1/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<
          string,
          { 'x-x402'?: { priceUsd: number }; security?: unknown[]; responses: Record<string, unknown> }
        >
      >
    }
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => key(m, path)),
    )
    expect(listed.sort()).toEqual(expected)
    for (const route of routeTable) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()]
      // Payment is not a credential: no operation declares a security requirement (no API key anywhere).
      expect(op?.security).toBeUndefined()
      if (route.priceUsd === null) {
        expect(op?.['x-x402']).toBeUndefined()
      } else {
        expect(op?.['x-x402']?.priceUsd).toBe(route.priceUsd)
        expect(op?.responses['402']).toBeDefined()
      }
    }
  })

  test('behavior: /v1/tools.json has one tool per endpoint', async () => {
    const { tools } = (await (await app.request('http://x/v1/tools.json')).json()) as {
      tools: { name: string; inputSchema: { type: string }; 'x-http': { method: string; path: string } }[]
    }
    expect(tools.map((t) => key(t['x-http'].method, t['x-http'].path)).sort()).toEqual(expected)
    expect(tools.map((t) => t.name).sort()).toEqual(routeTable.map((r) => r.id).sort())
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object')
  })

  test('behavior: every route has a summary, a description and an output schema', () => {
    for (const route of routeTable) {
      expect(route.summary.length, route.path).toBeGreaterThan(5)
      expect(route.description.length, route.path).toBeGreaterThan(20)
      expect(route.output, route.path).toBeDefined()
    }
  })
})
