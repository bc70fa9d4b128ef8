import { describe, expect, test } from 'vitest'
import type { GtradeHistoryRecord } from '../upstreams/gtradeHistory.js'
import { pairRoundTrips } from './pairRoundTrips.js'

const rec = (over: Partial<GtradeHistoryRecord>): GtradeHistoryRecord => ({
  action: 'TradeOpenedMarket',
  block: 1,
  long: true,
  leverage: 2,
  pair: 'BTC/USD',
  pnlNet: 0,
  price: 100,
  size: 250,
  tx: `0x${'1'.repeat(64)}`,
  tradeIndex: 0,
  time: 1000,
  collateralIndex: 1,
  ...over,
})

describe('pairRoundTrips', () => {
  test('behavior: a close pairs with the open of its pair and index, newest first, reasons mapped', () => {
    const open0 = rec({ block: 1, tx: `0x${'a'.repeat(64)}`, time: 10 })
    const close0 = rec({
      action: 'TradeClosedTP',
      block: 3,
      price: 110,
      pnlNet: 50,
      tx: `0x${'b'.repeat(64)}`,
      time: 30,
    })
    const open1 = rec({
      block: 4,
      tradeIndex: 1,
      pair: 'ETH/USD',
      long: false,
      leverage: 5,
      size: 100,
      price: 50,
    })
    const close1 = rec({
      action: 'TradeClosedLIQ',
      block: 6,
      tradeIndex: 1,
      pair: 'ETH/USD',
      long: false,
      pnlNet: -90,
      price: 60,
      time: 60,
    })
    const stillOpen = rec({ block: 7, tradeIndex: 2 })
    const trips = pairRoundTrips([stillOpen, close1, open1, close0, open0])
    expect(trips.map((t) => t.closeReason)).toEqual(['liquidation', 'take-profit'])
    expect(trips[0]).toMatchObject({
      side: 'short',
      leverage: 5,
      openPrice: 50,
      closePrice: 60,
      pnlUsd: -90,
      pnlPct: -90,
    })
    expect(trips[1]).toMatchObject({
      pair: { base: 'BTC', quote: 'USD' },
      openTx: open0.tx,
      closeTx: close0.tx,
      openedAt: 10,
      closedAt: 30,
      pnlPct: 20,
    })
  })

  test('behavior: an open found only in the lookup records completes the round trip; none found leaves it null', () => {
    const close = rec({ action: 'TradeClosedMarket', block: 9, pnlNet: -5 })
    expect(pairRoundTrips([close])[0]).toMatchObject({
      openPrice: null,
      openTx: null,
      openedAt: null,
      closeReason: 'manual',
    })
    expect(pairRoundTrips([close], [rec({ block: 2, price: 99 })])[0]?.openPrice).toBe(99)
  })
})
