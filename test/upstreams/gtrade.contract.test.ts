import { readFileSync } from 'node:fs'
import { type Address, getAddress, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createMarketSimulator } from '../../src/devnet/simulator/marketSimulator.js'
import { createGtradeBackendApp } from '../../src/devnet/upstreams/gtradeBackendApp.js'
import type { GtradeHistoryEvent, GtradeTradeSource } from '../../src/devnet/upstreams/gtradeTradeSource.js'
import { createFetchJson } from '../../src/market/upstreams/fetchJson.js'
import { createGtradeBackend } from '../../src/market/upstreams/gtradeBackend.js'
import { createGtradeHistory } from '../../src/market/upstreams/gtradeHistory.js'
import { startCaptureServer } from './captureServer.js'
import { sdkTypeProblems } from './sdkTypes.js'

/**
 * The gTrade backend and its trading-history API against the official SDK's types (@gainsnetwork/sdk
 * 1.8.7, vendored with provenance in test/fixtures/upstreams/gtrade): gTrade publishes no OpenAPI, so the
 * SDK's declarations are the contract its own users compile against. The simulator's documents are
 * type-checked against them; the adapter reads the SDK's own sample documents.
 */
const BACKEND_TYPES = 'gtrade/sdk-1.8.7/backend.tradingVariables.backend.types.d.ts.txt'
const TRADE_TYPES = 'gtrade/sdk-1.8.7/trade.types.d.ts.txt'
const example = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/upstreams/gtrade/examples/${name}`, import.meta.url), 'utf8'))
const NOW = Date.UTC(2026, 10, 15, 12, 0, 0)
const sim = createMarketSimulator({ seed: 11, clock: { now: () => NOW } })
const TRADER: Address = getAddress('0x52908400098527886e0f7030069857d2e4169ee7')
const events: GtradeHistoryEvent[] = [0, 1].map((i) => ({
  action: i === 0 ? 'TradeClosedMarket' : 'TradeOpenedMarket',
  trader: TRADER,
  pairIndex: 0,
  tradeIndex: 7,
  long: i === 1,
  leverage: 5,
  price: 95_000 + i,
  marketPrice: 95_000 + i,
  collateral: 250,
  pnlNet: i === 0 ? 12.5 : 0,
  collateralIndex: 1,
  collateralPriceUsd: 1,
  block: 1000 - i,
  timestampSec: 1_790_000_000 - i * 60,
  txHash: `0x${String(i).padStart(64, '0')}` as Hex,
}))
const trades: GtradeTradeSource = {
  openTrades: async () => [],
  history: async (trader, cursor, limit) => {
    const all = trader === TRADER ? events : []
    const start = cursor ? Number(cursor) : 0
    return {
      events: all.slice(start, start + limit),
      nextCursor: start + limit < all.length ? String(start + limit) : undefined,
    }
  },
}

describe('gTrade simulator answers as the SDK declares', () => {
  const app = createGtradeBackendApp({ sim, trades, clock: { now: () => NOW } })

  test('contract: /trading-variables/all type-checks as GlobalTradingVariablesBackend', async () => {
    const doc = await (await app.request('/trading-variables/all')).json()
    expect(sdkTypeProblems(BACKEND_TYPES, 'GlobalTradingVariablesBackend', doc)).toEqual([])
    // The check bites: a spread sent as a number where the SDK declares a string.
    const drifted = structuredClone(doc) as { pairs: { spreadP: unknown }[] }
    ;(drifted.pairs[0] as { spreadP: unknown }).spreadP = 0.05
    expect(sdkTypeProblems(BACKEND_TYPES, 'GlobalTradingVariablesBackend', drifted)).not.toEqual([])
  })

  test('contract: a history page’s records type-check as TradeHistoryRecord (0/1 flags)', async () => {
    const page = (await (
      await app.request(`/api/personal-trading-history/${TRADER}?chainId=8453&limit=2`)
    ).json()) as {
      data: unknown[]
    }
    expect(page.data).toHaveLength(2)
    expect(sdkTypeProblems(TRADE_TYPES, 'TradeHistoryRecord[]', page.data)).toEqual([])
    expect(
      sdkTypeProblems(TRADE_TYPES, 'TradeHistoryRecord[]', [{ ...(page.data[0] as object), long: true }]),
    ).not.toEqual([])
  })
})

describe('gTrade adapters read the SDK’s documents', () => {
  let server: Awaited<ReturnType<typeof startCaptureServer>>
  const sample = example('trading-variables.200.sdk-sample.excerpt.json') as {
    pairs: { from: string; spreadP: string }[]
    groups: { minLeverage: string }[]
  }
  const history = example('personal-trading-history.200.constructed-from-sdk-type.json') as {
    data: { long: number; address: string }[]
  }
  beforeAll(async () => {
    server = await startCaptureServer((url) => ({
      body: url.pathname.startsWith('/api/personal-trading-history/') ? history : sample,
    }))
  })
  afterAll(() => server.stop())

  test('contract: the SDK’s sample trading variables read with the SDK’s own scales', async () => {
    const backend = createGtradeBackend(server.url, createFetchJson())
    const pairs = await backend.pairs()
    const first = sample.pairs.findIndex((p) => p.from !== '')
    expect(pairs[0]?.pairIndex).toBe(first)
    // The SDK's converter: spreadP / 1e10 (percent), group leverage / 1e3.
    expect(pairs[0]?.spreadPct).toBe(Number(sample.pairs[first]?.spreadP) / 1e10)
    expect((await backend.groups())[0]?.minLeverage).toBe(Number(sample.groups[0]?.minLeverage) / 1e3)
    expect((await backend.openInterest()).size).toBeGreaterThan(0)
  })

  test('contract: a history record with the SDK’s 0/1 `long` reads as a side; the request is the documented one', async () => {
    const owner = getAddress(history.data[0]?.address as string)
    const page = await createGtradeHistory(server.url, createFetchJson()).page(owner, undefined, 50)
    expect(page.records.map((r) => r.long)).toEqual(history.data.map((r) => r.long === 1))
    const r = server.requests.find((q) => q.url.pathname.startsWith('/api/personal-trading-history/'))
    expect(r?.url.pathname).toBe(`/api/personal-trading-history/${owner}`)
    expect(Object.fromEntries(r?.url.searchParams ?? [])).toEqual({ chainId: '8453', limit: '50' })
  })
})
