import { type Address, getAddress, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { createMarketSimulator } from '../simulator/marketSimulator.js'
import { UNIVERSE } from '../simulator/universe.js'
import { createGtradeBackendApp } from './gtradeBackendApp.js'
import type { GtradeHistoryEvent, GtradeOpenTrade, GtradeTradeSource } from './gtradeTradeSource.js'

const NOW = Date.UTC(2026, 10, 15, 12, 34, 56, 789)
const sim = createMarketSimulator({ seed: 11, clock: { now: () => NOW } })
// Mixed-case checksum (an EIP-55 test vector), so the lower-case spelling differs.
const TRADER: Address = getAddress('0x52908400098527886e0f7030069857d2e4169ee7')

const openTrade: GtradeOpenTrade = {
  trade: {
    user: TRADER,
    index: 0,
    pairIndex: 1,
    leverage: 10_000,
    long: true,
    isOpen: true,
    collateralIndex: 1,
    tradeType: 0,
    collateralAmount: 100_000_000n,
    openPrice: 36_000_000_000_000n,
    tp: 0n,
    sl: 0n,
    isCounterTrade: false,
    positionSizeToken: 277_777_777_777_777_777n,
  },
  tradeInfo: {
    createdBlock: 100,
    tpLastUpdatedBlock: 100,
    slLastUpdatedBlock: 100,
    maxSlippageP: 1000,
    lastOiUpdateTs: 1_790_000_000,
    collateralPriceUsd: 100_000_000n,
    contractsVersion: 2,
    lastPosIncreaseBlock: 100,
  },
}

const events: GtradeHistoryEvent[] = Array.from({ length: 5 }, (_, i) => ({
  action: i % 2 === 0 ? 'TradeClosedMarket' : 'TradeOpenedMarket',
  trader: TRADER,
  pairIndex: 0,
  tradeIndex: 4 - i,
  long: i % 2 === 0,
  leverage: 5,
  price: 95_000 + i,
  marketPrice: 95_000 + i,
  collateral: 250,
  pnlNet: i % 2 === 0 ? 12.5 : 0,
  collateralIndex: 1,
  collateralPriceUsd: 1,
  block: 1000 - i,
  timestampSec: 1_790_000_000 - i * 60,
  txHash: `0x${String(i).padStart(64, '0')}` as Hex,
}))

/** In-test source: offsets as cursors, newest first. */
const source: GtradeTradeSource = {
  openTrades: async (trader) => (trader === TRADER ? [openTrade] : []),
  history: async (trader, cursor, limit) => {
    const all = trader === TRADER ? events : []
    const start = cursor ? Number(cursor) : 0
    const page = all.slice(start, start + limit)
    return { events: page, nextCursor: start + limit < all.length ? String(start + limit) : undefined }
  },
  pairOpenInterest: async () => new Map([[1, { long: 1_000_000_000n, short: 0n }]]),
}

const app = createGtradeBackendApp({ sim, trades: source })
const json = async (path: string) => {
  const res = await app.request(path)
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe('gtrade backend simulator', () => {
  test('trading-variables/all: pairs, groups, fees, leverages and OI in backend encodings', async () => {
    const { status, body } = await json('/trading-variables/all')
    expect(status).toBe(200)
    const tv = body as {
      pairs: { from: string; to: string; spreadP: string; groupIndex: string; feeIndex: string }[]
      groups: { name: string; minLeverage: string; maxLeverage: string }[]
      fees: Record<string, string>[]
      pairInfos: { maxLeverages: string[] }
      collaterals: {
        collateralIndex: number
        symbol: string
        collateralConfig: { precision: string; decimals: number }
        pairOis: { collateral: { oiLongCollateral: string; oiShortCollateral: string } }[]
      }[]
      currentBlock: number
      allTrades: unknown[]
      isStocksOpen: boolean
      liquidationParams: { groups: unknown[]; pairs: unknown[] }
    }
    expect(tv.pairs).toHaveLength(UNIVERSE.length)
    expect(tv.pairs[0]).toEqual({
      from: 'BTC',
      to: 'USD',
      spreadP: '400000000',
      groupIndex: '0',
      feeIndex: '0',
    })
    expect(tv.pairs[1]?.from).toBe('ETH')
    expect(tv.pairs[2]?.from).toBe('LINK')
    expect(tv.groups[0]).toEqual({ name: 'crypto', minLeverage: '1100', maxLeverage: '250000' })
    for (const f of tv.fees) for (const v of Object.values(f)) expect(v).toMatch(/^\d+$/)
    expect(tv.pairInfos.maxLeverages).toHaveLength(UNIVERSE.length)
    expect(tv.pairInfos.maxLeverages[0]).toBe('250000')
    const usdc = tv.collaterals[0]!
    expect(usdc).toMatchObject({ collateralIndex: 1, symbol: 'USDC', collateralConfig: { decimals: 6 } })
    expect(usdc.pairOis).toHaveLength(UNIVERSE.length)
    for (const oi of usdc.pairOis) expect(oi.collateral.oiLongCollateral).toMatch(/^\d+$/)
    // The onchain OI from the source is added on top of the synthetic crowd.
    const crowd = sim.perp.openInterest(1, NOW)
    expect(Number(usdc.pairOis[1]!.collateral.oiLongCollateral)).toBe(Math.round(crowd.longUsd * 1e6) + 1e9)
    expect(typeof tv.currentBlock).toBe('number')
    expect(tv.allTrades).toEqual([])
    expect(tv.liquidationParams.pairs).toHaveLength(UNIVERSE.length)
  })

  test('open-trades: TradeContainerBackend with string numbers', async () => {
    const { status, body } = await json(`/open-trades/${TRADER}`)
    expect(status).toBe(200)
    const [container] = body as unknown as {
      trade: Record<string, unknown>
      tradeInfo: Record<string, unknown>
      initialAccFees: Record<string, string>
      liquidationParams: Record<string, string>
    }[]
    expect(container?.trade).toMatchObject({
      user: TRADER,
      index: '0',
      pairIndex: '1',
      leverage: '10000',
      long: true,
      isOpen: true,
      collateralIndex: '1',
      tradeType: '0',
      collateralAmount: '100000000',
      openPrice: '36000000000000',
      tp: '0',
      sl: '0',
    })
    expect(container?.tradeInfo).toMatchObject({
      createdBlock: '100',
      maxSlippageP: '1000',
      lastOiUpdateTs: 1_790_000_000,
    })
    expect(Object.keys(container?.liquidationParams ?? {}).sort()).toEqual([
      'endLeverage',
      'endLiqThresholdP',
      'maxLiqSpreadP',
      'startLeverage',
      'startLiqThresholdP',
    ])
  })

  test('open-trades needs a checksummed address; garbage is a 400', async () => {
    expect((await json(`/open-trades/${TRADER.toLowerCase()}`)).body).toEqual([])
    expect((await json('/open-trades/0x123')).status).toBe(400)
  })

  test('history: {data, pagination} with cursor paging, newest first', async () => {
    const first = await json(`/api/personal-trading-history/${TRADER}?chainId=8453&limit=2`)
    expect(first.status).toBe(200)
    const page1 = first.body as {
      data: Record<string, unknown>[]
      pagination: { hasMore: boolean; nextCursor: string | null; limit: number }
    }
    expect(page1.data).toHaveLength(2)
    expect(page1.pagination).toEqual({ hasMore: true, nextCursor: '2', limit: 2 })
    expect(Object.keys(page1.data[0]!).sort()).toEqual(
      [
        'action',
        'address',
        'block',
        'long',
        'collateralPriceUsd',
        'collateralIndex',
        'date',
        'leverage',
        'pair',
        'pnl_net',
        'price',
        'size',
        'tx',
        'tradeIndex',
        'collateralDelta',
        'leverageDelta',
        'marketPrice',
        'isCounterTrade',
        'meta',
      ].sort(),
    )
    expect(page1.data[0]).toMatchObject({
      action: 'TradeClosedMarket',
      pair: 'BTC/USD',
      pnl_net: 12.5,
      size: 250,
    })
    const dates = page1.data.map((r) => Date.parse(r.date as string))
    expect(dates[0]).toBeGreaterThan(dates[1]!)
    const seen: unknown[] = [...page1.data]
    let cursor = page1.pagination.nextCursor
    while (cursor) {
      const next = (
        await json(`/api/personal-trading-history/${TRADER}?chainId=8453&limit=2&cursor=${cursor}`)
      ).body as typeof page1
      seen.push(...next.data)
      cursor = next.pagination.nextCursor
      if (!cursor) expect(next.pagination.hasMore).toBe(false)
    }
    expect(seen).toHaveLength(5)
  })

  test('history on another chain is empty; missing chainId is a 400', async () => {
    const other = (await json(`/api/personal-trading-history/${TRADER}?chainId=42161`)).body
    expect(other).toEqual({ data: [], pagination: { hasMore: false, nextCursor: null, limit: 50 } })
    expect((await json(`/api/personal-trading-history/${TRADER}`)).status).toBe(400)
  })
})
