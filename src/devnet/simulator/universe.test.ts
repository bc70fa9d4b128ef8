import { describe, expect, test } from 'vitest'
import { findInstrument, GTRADE_FEES, GTRADE_GROUPS, instrumentByPairIndex, UNIVERSE } from './universe.js'

describe('universe', () => {
  test('pairIndex is the dense position; the first gTrade indices match the SDK', () => {
    expect(UNIVERSE.map((inst) => inst.pairIndex)).toEqual(UNIVERSE.map((_, i) => i))
    expect(UNIVERSE.slice(0, 6).map((i) => i.symbol)).toEqual(['BTC', 'ETH', 'LINK', 'DOGE', 'POL', 'ADA'])
    expect(new Set(UNIVERSE.map((i) => i.symbol)).size).toBe(UNIVERSE.length)
  })

  test('covers every class and the 13 tokenized-stock underlyings', () => {
    const stocks = UNIVERSE.filter((i) => i.assetClass === 'Stocks').map((i) => i.symbol)
    expect(stocks).toEqual([
      'AAPL',
      'AMZN',
      'COIN',
      'CRCL',
      'GOOGL',
      'INTC',
      'META',
      'MSFT',
      'MSTR',
      'NVDA',
      'SNDK',
      'SPCX',
      'TSLA',
    ])
    for (const cls of ['Crypto', 'Forex', 'Commodities', 'Indices'] as const) {
      expect(UNIVERSE.some((i) => i.assetClass === cls)).toBe(true)
    }
  })

  test('group and fee indices point at existing entries; leverage within the group', () => {
    for (const inst of UNIVERSE) {
      const group = GTRADE_GROUPS[inst.groupIndex]
      expect(group).toBeDefined()
      expect(GTRADE_FEES[inst.feeIndex]).toBeDefined()
      expect(inst.maxLeverage).toBeLessThanOrEqual(group!.maxLeverage)
    }
  })

  test('Coinbase products only for crypto, not for BNB/TRX', () => {
    expect(findInstrument('BTC')?.coinbaseProduct).toBe('BTC-USD')
    expect(findInstrument('BNB')?.coinbaseProduct).toBeNull()
    expect(UNIVERSE.filter((i) => i.coinbaseProduct && i.assetClass !== 'Crypto')).toEqual([])
  })

  test('findInstrument resolves common spellings', () => {
    expect(findInstrument('btc')?.pairIndex).toBe(0)
    expect(findInstrument('BTC-USD')?.symbol).toBe('BTC')
    expect(findInstrument('EUR')?.symbol).toBe('EUR/USD')
    expect(findInstrument('USD', 'JPY')?.symbol).toBe('USD/JPY')
    expect(findInstrument('EUR', 'USD')?.symbol).toBe('EUR/USD')
    expect(findInstrument('MATIC')?.symbol).toBe('POL')
    expect(findInstrument('Equity.US.AAPL/USD')?.symbol).toBe('AAPL')
    expect(findInstrument('nope')).toBeUndefined()
    expect(instrumentByPairIndex(1)?.symbol).toBe('ETH')
  })
})
