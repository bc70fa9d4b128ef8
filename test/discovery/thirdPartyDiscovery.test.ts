import { discoverOriginSchema } from '@agentcash/discovery'
import { describe, expect, test } from 'vitest'
import { routeTable } from '../../src/routes/table.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// Discovery as a client nobody here wrote does it: agentcash's own discovery runtime (@agentcash/discovery,
// what its MCP payment bridge uses), given the service's origin alone.
const sw = useWorld()
const svc = useInstance(sw)

describe('third-party discovery', () => {
  test('behavior: @agentcash/discovery lists every priced endpoint with its price from the origin, and no API key', async () => {
    const found = await discoverOriginSchema({ target: svc.url })
    if (!found.found) throw new Error(`nothing discovered: ${JSON.stringify(found)}`)
    const priced = routeTable.filter((r) => r.priceUsd !== null)
    for (const route of priced) {
      const listed = found.endpoints.find((e) => e.path === route.path && e.method === route.method)
      expect(listed, `${route.method} ${route.path}`).toBeDefined()
      // Its price as the package formats it ("0.01 USD"), x402 its protocol, and no API key.
      expect(Number.parseFloat(String(listed?.price)), JSON.stringify(listed)).toBeCloseTo(
        route.priceUsd as number,
        9,
      )
      expect(listed?.protocols, route.id).toContain('x402')
      expect(listed?.authMode, route.id).not.toBe('apiKey')
    }
  })
})
