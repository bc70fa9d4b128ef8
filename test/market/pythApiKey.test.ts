import { describe, expect, test } from 'vitest'
import { DEVNET_PYTH_API_KEY, loadConfig, missingUpstreamKeys } from '../../src/config.js'
import { useWorld } from '../helpers/serviceWorld.js'
import { testDatabase } from '../helpers/testDatabase.js'

// Pyth Hermes requires an API key since Pyth's Core upgrade (2026): `Authorization: Bearer <key>`, 401
// without one (issue 39). The devnet's Hermes simulator demands its key; the service sends it.

const sw = useWorld()

describe('the Pyth API key', () => {
  test('behavior: the devnet simulator refuses a request without the key (401) and answers with it; the service sends it', async () => {
    const hermes = sw.env.PYTH_HERMES_URL ?? loadConfig(sw.env).upstreams.pythHermes
    const bare = await fetch(`${hermes}/v2/price_feeds?asset_type=crypto`)
    expect(bare.status).toBe(401)
    await bare.body?.cancel()
    const keyed = await fetch(`${hermes}/v2/price_feeds?asset_type=crypto`, {
      headers: { authorization: `Bearer ${DEVNET_PYTH_API_KEY}` },
    })
    expect(keyed.status).toBe(200)
    expect(((await keyed.json()) as unknown[]).length).toBeGreaterThan(0)
    const svc = await sw.instance()
    const feeds = await svc.services.deps.market.pyth.feeds()
    expect(feeds.length).toBeGreaterThan(0)
  })

  test('error: a wrong key is an outage, not a refusal: the reads fail (502), the circuit opens and /ready names it; the key unset on base is named at start', async () => {
    const database = await testDatabase()
    try {
      const svc = await sw.instance({
        PYTH_API_KEY: 'a-revoked-key',
        BREAKER_FAILURES: '3',
        DATABASE_URL: database.url,
      })
      for (let i = 0; i < 3; i++) {
        const err = await svc.services.deps.market.pyth.feeds().catch((e: unknown) => e)
        expect(err).toMatchObject({ status: 502, code: 'upstream_unavailable' })
      }
      const ready = (await (await fetch(`${svc.url}/ready`)).json()) as {
        openCircuits: Record<string, string>
      }
      expect(ready.openCircuits).toMatchObject({ 'Pyth Hermes': 'open' })
    } finally {
      await database.drop()
    }
    const base = {
      PROFILE: 'base',
      PAY_TO: `0x${'1'.repeat(40)}`,
      RELAYER_PRIVATE_KEY: `0x${'2'.repeat(64)}`,
    }
    // Every key an upstream refuses calls without is named, each on its own.
    expect(missingUpstreamKeys(loadConfig(base))).toMatch(
      /^PYTH_API_KEY is not set.*; EXPLORER_API_KEY is not set/,
    )
    expect(missingUpstreamKeys(loadConfig({ ...base, PYTH_API_KEY: 'k' }))).toMatch(
      /^EXPLORER_API_KEY is not set/,
    )
    expect(missingUpstreamKeys(loadConfig({ ...base, EXPLORER_API_KEY: 'e' }))).toMatch(
      /^PYTH_API_KEY is not set/,
    )
    expect(
      missingUpstreamKeys(loadConfig({ ...base, PYTH_API_KEY: 'k', EXPLORER_API_KEY: 'e' })),
    ).toBeUndefined()
  })
})
