import { describe, expect, test } from 'vitest'
import { getCrowdRoute } from '../../routes/crowd/getCrowd.js'
import { getRiskPairsRoute } from '../../routes/risk/getRiskPairs.js'
import type { MarketData } from '../marketData.js'
import { getRiskPairs } from '../risk/getRiskPairs.js'
import { createGtradeBackend } from '../upstreams/gtradeBackend.js'
import { getCrowd } from './getCrowd.js'

/** The real gTrade adapter over a canned /trading-variables/all (only the reads' parts of it). */
function marketWith(variables: unknown): MarketData {
  const gtrade = createGtradeBackend('http://gtrade.test', async () => variables)
  return { gtrade } as Pick<MarketData, 'gtrade'> as MarketData
}

const pairOi = (long: string, short: string, before?: [string, string]) => ({
  ...(before ? { beforeV10: { long: before[0], short: before[1], max: '0' } } : {}),
  collateral: { oiLongCollateral: long, oiShortCollateral: short },
})

// Slot 1 is an empty placeholder (a delisted pair): indices after it keep their raw position.
const VARIABLES = {
  pairs: [
    { from: 'BTC', to: 'USD', spreadP: '400000000', groupIndex: '0' },
    { from: '', to: '', spreadP: '0', groupIndex: '0' },
    { from: 'USD', to: 'JPY', spreadP: '100000000', groupIndex: '1' },
    { from: 'OLD', to: 'USD', spreadP: '500000000', groupIndex: '0' },
    { from: 'ETH', to: 'USD', spreadP: '400000000', groupIndex: '0' },
  ],
  groups: [
    { name: 'crypto', minLeverage: '1100', maxLeverage: '250000' },
    { name: 'forex', minLeverage: '1100', maxLeverage: '1000000' },
  ],
  // BTC capped at 150x; USD/JPY and ETH take their group's; OLD parked at 1x, below the minimum.
  pairInfos: { maxLeverages: ['150000', '0', '0', '1000', '0'] },
  collaterals: [
    {
      collateralIndex: 1,
      symbol: 'USDC',
      isActive: true,
      prices: { collateralPriceUsd: 1 },
      collateralConfig: { decimals: 6 },
      pairOis: [
        // 600 long / 200 short USDC, plus 100 / 100 from before v10 (1e10 units).
        pairOi('600000000', '200000000', ['1000000000000', '1000000000000']),
        pairOi('0', '0'),
        pairOi('50000000', '150000000'),
        pairOi('0', '0'),
        pairOi('0', '0'),
      ],
    },
    {
      collateralIndex: 2,
      symbol: 'BTCUSD',
      isActive: true,
      prices: { collateralPriceUsd: 100_000 },
      collateralConfig: { decimals: 8 },
      // 0.002 BTC long on BTC/USD = $200.
      pairOis: [
        pairOi('200000', '0'),
        pairOi('0', '0'),
        pairOi('0', '0'),
        pairOi('0', '0'),
        pairOi('0', '0'),
      ],
    },
    {
      collateralIndex: 3,
      symbol: 'GNS',
      isActive: false,
      prices: { collateralPriceUsd: 2 },
      collateralConfig: { decimals: 18 },
      pairOis: [
        pairOi(`${10n ** 24n}`, '0'),
        pairOi('0', '0'),
        pairOi('0', '0'),
        pairOi('0', '0'),
        pairOi('0', '0'),
      ],
    },
  ],
}

describe('getCrowd', () => {
  test('behavior: open interest summed over active collaterals in USD, pre-v10 included, raw indices kept', async () => {
    const crowd = await getCrowd(marketWith(VARIABLES))
    // BTC: 700 + 200 long, 300 short; USD/JPY: 50 / 150; the rest empty. Book: 1,400.
    expect(crowd.totalBookUsd).toBe(1400)
    expect(crowd.pairs.map((p) => p.pairIndex)).toEqual([0, 2, 3, 4])
    expect(crowd.pairs[0]).toEqual({
      symbol: 'BTC',
      pair: 'BTC/USD',
      pairIndex: 0,
      longPct: 75,
      shortPct: 25,
      longUsd: 900,
      shortUsd: 300,
      totalUsd: 1200,
      bookSharePct: 85.7143,
    })
    expect(crowd.pairs[1]).toMatchObject({ symbol: 'USD/JPY', longPct: 25, shortPct: 75, totalUsd: 200 })
    // No open interest: no split to report (null, not a fake 0 %), and a real 0 % of the book.
    expect(crowd.pairs[3]).toMatchObject({ symbol: 'ETH', longPct: null, shortPct: null, bookSharePct: 0 })
    expect(getCrowdRoute.output.safeParse(crowd).success).toBe(true)
  })

  test('behavior: symbols in the order asked, by base, pair or quote of a USD-based pair, once each', async () => {
    const crowd = await getCrowd(marketWith(VARIABLES), ['jpy', 'btc/usd', 'BTC', 'nope'])
    expect(crowd.pairs.map((p) => p.pair)).toEqual(['USD/JPY', 'BTC/USD'])
    expect(crowd.unknown).toEqual(['NOPE'])
    expect(crowd.totalBookUsd).toBe(1400)
  })

  test('error: only unknown tickers is a 400 naming symbols', async () => {
    await expect(getCrowd(marketWith(VARIABLES), ['NOPE', 'ZZZ'])).rejects.toMatchObject({
      status: 400,
      code: 'unknown_symbol',
      field: 'symbols',
      details: { unknown: ['NOPE', 'ZZZ'] },
    })
  })

  test('error: a document without collaterals is the upstream’s 502', async () => {
    const { collaterals: _, ...withoutOi } = VARIABLES
    await expect(getCrowd(marketWith(withoutOi))).rejects.toMatchObject({
      status: 502,
      code: 'upstream_unavailable',
    })
  })
})

describe('getRiskPairs', () => {
  test('behavior: the pair’s own cap, else its group’s; a pair parked below its group minimum is left out', async () => {
    const pairs = await getRiskPairs(marketWith(VARIABLES))
    expect(pairs).toEqual([
      {
        pairIndex: 0,
        symbol: 'BTC/USD',
        group: 'crypto',
        minLeverage: 1.1,
        maxLeverage: 150,
        spreadPct: 0.04,
      },
      {
        pairIndex: 2,
        symbol: 'USD/JPY',
        group: 'forex',
        minLeverage: 1.1,
        maxLeverage: 1000,
        spreadPct: 0.01,
      },
      {
        pairIndex: 4,
        symbol: 'ETH/USD',
        group: 'crypto',
        minLeverage: 1.1,
        maxLeverage: 250,
        spreadPct: 0.04,
      },
    ])
    expect(getRiskPairsRoute.output.safeParse({ pairs }).success).toBe(true)
  })

  test('error: a pair naming a group the document does not list is the upstream’s 502', async () => {
    const broken = { ...VARIABLES, groups: VARIABLES.groups.slice(0, 1) }
    await expect(getRiskPairs(marketWith(broken))).rejects.toMatchObject({ status: 502 })
  })
})
