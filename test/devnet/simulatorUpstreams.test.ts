import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createMarketSimulator } from '../../src/devnet/simulator/marketSimulator.js'
import { type RunningUpstreams, startUpstreams } from '../../src/devnet/upstreams/startUpstreams.js'

// The whole non-chain devnet world over real sockets, as the service's adapters will see it.
const sim = createMarketSimulator({ seed: 2026, clock: { now: () => Date.now() } })
let upstreams: RunningUpstreams

beforeAll(async () => {
  upstreams = await startUpstreams({
    sim,
    gtradeTrades: {
      openTrades: async () => [],
      history: async () => ({ events: [], nextCursor: undefined }),
    },
    tokenBalances: { nativeBalance: async () => 0n, tokenBalances: async () => [] },
  })
})

afterAll(async () => {
  await upstreams?.stop()
})

describe('startUpstreams', () => {
  test('every upstream listens on 127.0.0.1 and answers in its wire format', async () => {
    const { urls } = upstreams
    // Blockscout's PRO API URLs carry the chain id.
    for (const url of Object.values(urls)) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+(\/8453)?$/)

    const ticker = (await (await fetch(`${urls.coinbaseExchange}/products/BTC-USD/ticker`)).json()) as {
      price: string
    }
    expect(Number(ticker.price)).toBeGreaterThan(0)

    const feeds = (await (
      await fetch(`${urls.pythHermes}/v2/price_feeds?query=eth&asset_type=crypto`)
    ).json()) as {
      id: string
    }[]
    const latest = await fetch(`${urls.pythHermes}/v2/updates/price/latest?ids[]=${feeds[0]?.id}`)
    expect(latest.status).toBe(200)

    const now = Math.floor(Date.now() / 1000)
    const bars = (await (
      await fetch(
        `${urls.pythBenchmarks}/v1/shims/tradingview/history?symbol=Metal.XAU/USD&resolution=D&from=${now - 30 * 86_400}&to=${now}`,
      )
    ).json()) as { s: string }
    expect(bars.s).toBe('ok')

    const tv = (await (await fetch(`${urls.gtradeBackend}/trading-variables/all`)).json()) as {
      pairs: unknown[]
    }
    expect(tv.pairs.length).toBe(sim.universe.length)

    const tokens = await fetch(`${urls.blockscout}/api/v2/addresses/0x${'44'.repeat(20)}/token-balances`)
    expect(await tokens.json()).toEqual([])
  })

  test('fixed ports are honoured and stop() frees them', async () => {
    const probe = await startUpstreams({
      sim,
      gtradeTrades: {
        openTrades: async () => [],
        history: async () => ({ events: [], nextCursor: undefined }),
      },
      tokenBalances: { nativeBalance: async () => 0n, tokenBalances: async () => [] },
    })
    const port = Number(new URL(probe.urls.coinbaseExchange).port)
    await probe.stop()
    const again = await startUpstreams({
      sim,
      gtradeTrades: {
        openTrades: async () => [],
        history: async () => ({ events: [], nextCursor: undefined }),
      },
      tokenBalances: { nativeBalance: async () => 0n, tokenBalances: async () => [] },
      ports: { coinbaseExchange: port },
    })
    expect(again.urls.coinbaseExchange).toBe(`http://127.0.0.1:${port}`)
    await again.stop()
  })
})
