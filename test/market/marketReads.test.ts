import { beforeAll, describe, expect, test } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { getCandles, UnknownInstrumentError } from '../../src/market/candles/getCandles.js'
import { createMarketData, type MarketData } from '../../src/market/marketData.js'
import { getPrices } from '../../src/market/prices/getPrices.js'
import { useWorld } from '../helpers/serviceWorld.js'

// Reads through the real adapters, over HTTP, against the worker's devnet world's upstream simulators.
const sw = useWorld()
let market: MarketData

beforeAll(() => {
  market = createMarketData(loadConfig(sw.env).upstreams)
})

describe('candles', () => {
  test.each([
    [7, 3600, 168],
    [31, 21_600, 124],
    [350, 86_400, 350],
  ])(
    'behavior: %i days → %i s bars, whole bars, oldest first, extremes of the window',
    async (days, bar, rows) => {
      const c = await getCandles(market, { product: 'BTC-USD', quote: 'USD', days }, Date.now())
      expect(c).toMatchObject({ productId: 'BTC-USD', days, granularitySec: bar, candles: rows })
      const times = c.series.map((r) => r[0])
      expect(times).toEqual([...times].sort((a, b) => a - b))
      expect(new Set(times).size).toBe(times.length)
      expect(times.every((t, i) => i === 0 || t - (times[i - 1] as number) === bar)).toBe(true)
      expect(c.high).toBe(Math.max(...c.series.map((r) => r[2])))
      expect(c.low).toBe(Math.min(...c.series.map((r) => r[3])))
      for (const [, open, high, low, close] of c.series) {
        expect(high).toBeGreaterThanOrEqual(Math.max(open, close))
        expect(low).toBeLessThanOrEqual(Math.min(open, close))
      }
      // The window ends at the current bar: the last row is the latest whole bar, and it closes at the
      // simulator's price at the bar's end.
      const [lastStart, , , , lastClose] = c.series.at(-1) ?? [0, 0, 0, 0, 0]
      expect(lastStart + 2 * bar).toBeGreaterThan(Date.now() / 1000)
      expect(lastClose).toBeCloseTo(sw.world.sim.spot('BTC', (lastStart + bar) * 1000), -1)
    },
  )

  test('behavior: a symbol the exchange does not list comes from the oracle history of its class', async () => {
    const gold = await getCandles(
      market,
      { sym: 'XAU', cls: 'Commodities', quote: 'USD', days: 30 },
      Date.now(),
    )
    expect(gold.productId).toBe('Metal.XAU/USD')
    expect(gold.granularitySec).toBe(21_600)
    expect(gold.candles).toBe(120)
    const eth = await getCandles(market, { sym: 'ETH', cls: 'Crypto', quote: 'USD', days: 2 }, Date.now())
    expect(eth.productId).toBe('ETH-USD')
  })

  test('errors: unknown instruments are a 404 naming the field', async () => {
    await expect(
      getCandles(market, { product: 'NOPE-USD', quote: 'USD', days: 3 }, Date.now()),
    ).rejects.toMatchObject({
      status: 404,
      code: 'unknown_instrument',
      field: 'product',
    })
    const err = await getCandles(
      market,
      { sym: 'NOPE', cls: 'Forex', quote: 'USD', days: 3 },
      Date.now(),
    ).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UnknownInstrumentError)
    expect((err as UnknownInstrumentError).field).toBe('sym')
  })
})

describe('prices', () => {
  test('behavior: both legs where both venues list the symbol, one leg where one does, unknown for neither', async () => {
    const { prices, unknown } = await getPrices(market, ['btc', 'XAU', 'ZZZ'])
    const [btc, xau] = prices
    expect(btc?.symbol).toBe('BTC')
    expect(btc?.spot).toMatchObject({ venue: 'coinbase-exchange' })
    expect(btc?.spot?.high24h).toBeGreaterThanOrEqual(btc?.spot?.low24h ?? Number.POSITIVE_INFINITY)
    expect(btc?.perp).toMatchObject({ venue: 'gtrade', pairIndex: 0 })
    expect(xau?.spot).toBeNull()
    expect(xau?.perp?.index).toBeCloseTo(sw.world.sim.spot('XAU'), 0)
    expect(prices).toHaveLength(2)
    expect(unknown).toEqual(['ZZZ'])
    await expect(getPrices(market, ['ZZZ', '1e309'])).rejects.toMatchObject({
      status: 400,
      code: 'unknown_symbol',
      field: 'symbols',
    })
  })
})
