import { describe, expect, test } from 'vitest'
import { routeTable } from '../src/routes/table.js'
import { testApp } from './helpers/testApp.js'

const { app, deps } = await testApp()
const get = (path: string) => app.request(`http://x${path}`)

describe('discovery documents', () => {
  test('behavior: every document is served with its media type', async () => {
    const expectations: [string, RegExp][] = [
      ['/.well-known/x402', /application\/json/],
      ['/.well-known/mcp/server-card.json', /application\/json/],
      ['/.well-known/acp.json', /application\/json/],
      ['/.well-known/agent-skills/index.json', /application\/json/],
      ['/.well-known/api-catalog', /application\/linkset\+json/],
      ['/.well-known/oauth-protected-resource', /application\/json/],
      ['/.well-known/ai-catalog.json', /application\/json/],
      ['/auth.md', /text\/markdown/],
      ['/llms-full.txt', /text\/plain/],
    ]
    for (const [path, type] of expectations) {
      const res = await get(path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type'), path).toMatch(type)
    }
  })

  test('behavior: /.well-known/x402 lists every priced resource', async () => {
    const doc = (await (await get('/.well-known/x402')).json()) as {
      x402Version: number
      resources: string[]
    }
    expect(doc.x402Version).toBe(2)
    expect(doc.resources).toHaveLength(routeTable.filter((r) => r.priceUsd !== null).length)
    expect(doc.resources[0]).toMatch(/^(GET|POST) http/)
    // The OpenAPI document is also at the origin's root, where discovery tools look first.
    const root = await get('/openapi.json')
    expect(root.status).toBe(200)
    expect(await root.json()).toEqual(await (await get('/v1/openapi.json')).json())
  })

  test('behavior: api-catalog is an RFC 9727 linkset pointing at the OpenAPI document', async () => {
    const doc = (await (await get('/.well-known/api-catalog')).json()) as {
      linkset: { anchor: string; 'service-desc': { href: string }[] }[]
    }
    expect(doc.linkset[0]?.anchor).toBe(`${deps.config.publicUrl}/v1`)
    expect(doc.linkset[0]?.['service-desc'][0]?.href).toBe(`${deps.config.publicUrl}/v1/openapi.json`)
  })

  test('behavior: oauth-protected-resource names no authorization server and says payment is the credential', async () => {
    const doc = (await (await get('/.well-known/oauth-protected-resource')).json()) as Record<string, unknown>
    expect(doc.resource).toBe(`${deps.config.publicUrl}/v1`)
    expect(doc.authorization_servers).toEqual([])
    expect(JSON.stringify(doc)).toMatch(/payment is the credential/)
  })

  test('behavior: every agent skill listed in the index is served', async () => {
    const index = (await (await get('/.well-known/agent-skills/index.json')).json()) as {
      skills: { url: string }[]
    }
    expect(index.skills.length).toBeGreaterThan(0)
    for (const skill of index.skills) {
      const res = await get(new URL(skill.url).pathname)
      expect(res.status, skill.url).toBe(200)
      expect(await res.text()).toMatch(/^---\nname: /)
    }
    expect((await get('/.well-known/agent-skills/unknown/SKILL.md')).status).toBe(404)
  })

  test('behavior: llms-full.txt and auth.md cover every endpoint and both payment rails', async () => {
    const llms = await (await get('/llms-full.txt')).text()
    for (const route of routeTable) expect(llms).toContain(`## ${route.method} ${route.path}\n`)
    const auth = await (await get('/auth.md')).text()
    expect(auth).toMatch(/PAYMENT-SIGNATURE/)
    expect(auth).toMatch(/X-UTIL-TOPUP/)
  })

  test('behavior: the catalog omits the prices block until live market data is connected', async () => {
    const catalog = (await (await get('/v1')).json()) as Record<string, unknown>
    expect(catalog).not.toHaveProperty('prices')
  })
})
