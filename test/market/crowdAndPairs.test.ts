import { wrapFetchWithPayment } from '@x402/fetch'
import { parseAbi } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { type Instance, type ServiceWorld, startServiceWorld } from '../helpers/serviceWorld.js'

// Paid reads on the devnet, checked against the devnet's own truth: the gTrade backend simulator's
// /trading-variables/all (what the service reads), the simulator it is computed from, and the diamond.
let sw: ServiceWorld
let svc: Instance

beforeAll(async () => {
  sw = await startServiceWorld()
  svc = await sw.instance()
}, 120_000)
afterAll(async () => {
  await sw?.stop()
})

/** The parts of the simulator's GlobalTradingVariablesBackend these checks read. */
interface TradingVariables {
  pairs: { from: string; to: string; spreadP: string; groupIndex: string }[]
  groups: { name: string; minLeverage: string; maxLeverage: string }[]
  pairInfos: { maxLeverages: string[] }
  collaterals: {
    prices: { collateralPriceUsd: number }
    collateralConfig: { decimals: number }
    pairOis: { collateral: { oiLongCollateral: string; oiShortCollateral: string } }[]
  }[]
}

interface CrowdBody {
  totalBookUsd: number
  pairs: {
    symbol: string
    pair: string
    pairIndex: number
    longPct: number | null
    shortPct: number | null
    longUsd: number
    shortUsd: number
    totalUsd: number
    bookSharePct: number | null
  }[]
  unknown: string[]
}

const PRICE_ATOMIC = 1_000n // $0.001

async function tradingVariables(): Promise<TradingVariables> {
  const res = await fetch(`${svc.config.upstreams.gtradeBackend}/trading-variables/all`)
  expect(res.status).toBe(200)
  return (await res.json()) as TradingVariables
}

/** Per pairIndex long/short USD, computed here from the served document: collateral OI at its decimals, times its price. */
function bookOf(vars: TradingVariables): Map<number, { long: number; short: number }> {
  const book = new Map<number, { long: number; short: number }>()
  for (const c of vars.collaterals) {
    const unit = 10 ** c.collateralConfig.decimals
    c.pairOis.forEach((oi, i) => {
      const prev = book.get(i) ?? { long: 0, short: 0 }
      book.set(i, {
        long: prev.long + (Number(oi.collateral.oiLongCollateral) / unit) * c.prices.collateralPriceUsd,
        short: prev.short + (Number(oi.collateral.oiShortCollateral) / unit) * c.prices.collateralPriceUsd,
      })
    })
  }
  return book
}

/**
 * The simulator's crowd changes on the hour and the service keeps the backend document 10 s: the world's
 * clock is held at one instant (the same for every test of the file), so the service's copy, the test's
 * fetch and the simulator describe the same hour however long the test takes.
 */
const HELD_AT = Date.now()
function holdWorldClock(): void {
  sw.worldClock.hold(HELD_AT)
}

describe('GET /v1/crowd', () => {
  test('default: paid with @x402/fetch, every listed pair with the backend’s open interest; USDC moves by the price', async () => {
    holdWorldClock()
    const who = await sw.freshWallet(100_000n)
    const pay = wrapFetchWithPayment(fetch, who.client)
    const res = await pay(`${svc.url}/v1/crowd`)
    expect(res.status, await res.clone().text()).toBe(200)
    const body = (await res.json()) as CrowdBody
    const vars = await tradingVariables()
    const book = bookOf(vars)

    const listed = vars.pairs.flatMap((p, i) => (p.from === '' ? [] : [{ ...p, pairIndex: i }]))
    expect(body.pairs.map((p) => p.pairIndex)).toEqual(listed.map((p) => p.pairIndex))
    const total = [...book.values()].reduce((s, b) => s + b.long + b.short, 0)
    expect(total).toBeGreaterThan(0)
    expect(body.totalBookUsd).toBeCloseTo(total, 1)
    for (const p of body.pairs) {
      const raw = vars.pairs[p.pairIndex]!
      const truth = book.get(p.pairIndex)!
      expect(p.pair).toBe(`${raw.from}/${raw.to}`)
      expect(p.symbol).toBe(raw.to === 'USD' ? raw.from : `${raw.from}/${raw.to}`)
      expect(p.longUsd, p.pair).toBeCloseTo(truth.long, 1)
      expect(p.shortUsd, p.pair).toBeCloseTo(truth.short, 1)
      expect(p.totalUsd, p.pair).toBeCloseTo(truth.long + truth.short, 1)
      expect(p.longPct, p.pair).toBeCloseTo((truth.long / (truth.long + truth.short)) * 100, 1)
      expect((p.longPct ?? 0) + (p.shortPct ?? 0)).toBeCloseTo(100, 1)
      expect(p.bookSharePct, p.pair).toBeCloseTo(((truth.long + truth.short) / total) * 100, 3)
    }
    expect(body.pairs.reduce((s, p) => s + (p.bookSharePct ?? 0), 0)).toBeCloseTo(100, 1)
    expect(body.unknown).toEqual([])

    // The document is the simulator's crowd (per side, to the micro-dollar of its 6-decimal encoding).
    for (const sym of ['BTC', 'EUR', 'XAU', 'AAPL']) {
      const inst = sw.world.sim.instrument(sym)
      const sim = sw.world.sim.perp.openInterest(inst.pairIndex)
      const served = body.pairs.find((p) => p.pairIndex === inst.pairIndex)!
      expect(served.longUsd, sym).toBeCloseTo(sim.longUsd, 1)
      expect(served.shortUsd, sym).toBeCloseTo(sim.shortUsd, 1)
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(100_000n - PRICE_ATOMIC)
  }, 90_000)

  test('behavior: symbols picks pairs in the order asked, unknown ones apart; the book share stays against the whole book', async () => {
    holdWorldClock()
    const who = await sw.freshWallet(100_000n)
    const pay = wrapFetchWithPayment(fetch, who.client)
    const all = (await (await pay(`${svc.url}/v1/crowd`)).json()) as CrowdBody
    const res = await pay(`${svc.url}/v1/crowd?symbols=eth,BTC,JPY,EURUSD,NOPE,BTC/USD`)
    expect(res.status).toBe(200)
    const some = (await res.json()) as CrowdBody
    expect(some.pairs.map((p) => p.symbol)).toEqual(['ETH', 'BTC', 'USD/JPY', 'EUR'])
    expect(some.unknown).toEqual(['NOPE'])
    expect(some.totalBookUsd).toBe(all.totalBookUsd)
    for (const p of some.pairs) expect(p).toEqual(all.pairs.find((q) => q.pairIndex === p.pairIndex))
    // Every ticker unknown: a 400 naming the field, and nothing charged.
    const before = await sw.usdcBalance(who.account.address)
    const none = await pay(`${svc.url}/v1/crowd?symbols=NOPE,ZZZ`)
    expect(none.status).toBe(400)
    expect(((await none.json()) as { error: { code: string; field: string } }).error).toMatchObject({
      code: 'unknown_symbol',
      field: 'symbols',
    })
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
  }, 90_000)

  test('error: with the gTrade backend unreachable, a paid call is a 502 with Retry-After and moves no USDC', async () => {
    const broken = await sw.instance({ GTRADE_BACKEND_URL: 'http://127.0.0.1:1' })
    const who = await sw.freshWallet(10_000n)
    const pay = wrapFetchWithPayment(fetch, who.client)
    const res = await pay(`${broken.url}/v1/crowd`)
    expect([502, 503]).toContain(res.status)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    const body = (await res.json()) as { error: { code: string; details?: { upstream?: string } } }
    expect(body.error).toMatchObject({
      code: 'upstream_unavailable',
      details: { upstream: 'gTrade backend' },
    })
    expect(res.headers.get('payment-response')).toBeNull()
    expect(await sw.usdcBalance(who.account.address)).toBe(10_000n)
    expect(await broken.services.deps.ledger.byPayer(who.account.address)).toHaveLength(0)
  })
})

describe('GET /v1/risk/pairs', () => {
  test('default: paid, every listed pair with its onchain index, the backend’s max leverage and spread, and its group', async () => {
    const who = await sw.freshWallet(100_000n)
    const pay = wrapFetchWithPayment(fetch, who.client)
    const res = await pay(`${svc.url}/v1/risk/pairs`)
    expect(res.status).toBe(200)
    const { pairs } = (await res.json()) as {
      pairs: {
        pairIndex: number
        symbol: string
        group: string
        minLeverage: number
        maxLeverage: number
        spreadPct: number
      }[]
    }
    const vars = await tradingVariables()
    const listed = vars.pairs.flatMap((p, i) => (p.from === '' ? [] : [{ ...p, pairIndex: i }]))
    expect(pairs.map((p) => p.pairIndex)).toEqual(listed.map((p) => p.pairIndex))
    for (const p of pairs) {
      const raw = vars.pairs[p.pairIndex]!
      const group = vars.groups[Number(raw.groupIndex)]!
      const custom = Number(vars.pairInfos.maxLeverages[p.pairIndex] ?? 0)
      expect(p.symbol).toBe(`${raw.from}/${raw.to}`)
      expect(p.group).toBe(group.name)
      expect(p.minLeverage).toBe(Number(group.minLeverage) / 1e3)
      expect(p.maxLeverage, p.symbol).toBe(custom > 0 ? custom / 1e3 : Number(group.maxLeverage) / 1e3)
      expect(p.spreadPct, p.symbol).toBe(Number(raw.spreadP) / 1e10)
    }
    // The backend's numbers are the simulator's universe, and the indices are the diamond's.
    for (const inst of sw.world.sim.universe) {
      const p = pairs.find((q) => q.pairIndex === inst.pairIndex)
      expect(p, inst.symbol).toMatchObject({ maxLeverage: inst.maxLeverage, spreadPct: inst.spreadPct })
    }
    const diamondPairs = parseAbi([
      'function pairs(uint256) view returns ((string from, string to, (address feed1, address feed2, uint8 feedCalculation, uint256 maxDeviationP) feed, uint256 spreadP, uint256 groupIndex, uint256 feeIndex))',
    ])
    for (const p of pairs.filter((_, i) => i % 9 === 0)) {
      const onchain = await sw.chain.readContract({
        address: BASE_ADDRESSES.GtradeDiamond,
        abi: diamondPairs,
        functionName: 'pairs',
        args: [BigInt(p.pairIndex)],
      })
      expect(`${onchain.from}/${onchain.to}`).toBe(p.symbol)
      expect(Number(onchain.spreadP) / 1e10).toBe(p.spreadPct)
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(100_000n - PRICE_ATOMIC)
  })
})
