import { wrapFetchWithPayment } from '@x402/fetch'
import type { Address } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import type { IdeaRead } from '../../src/analytics/ideaFromBars.js'
import type { RiskOpenAction } from '../../src/builders/risk/riskOpen.js'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { DEVNET_PYTH_API_KEY } from '../../src/config.js'
import { gtradeStandInAbi } from '../../src/devnet/deploy/gtrade.js'
import { UNIVERSE } from '../../src/devnet/simulator/universe.js'
import type { ErrorBody } from '../../src/errors.js'
import type { Alpha } from '../../src/market/alpha/getAlpha.js'
import type { Arbitrage } from '../../src/market/arbitrage/getArbitrage.js'
import { type AssetIdea, getAssetIdea } from '../../src/market/ideas/getAssetIdea.js'
import { getIdeas, type Ideas } from '../../src/market/ideas/getIdeas.js'
import { getIdeasCompare, type IdeasCompare } from '../../src/market/ideas/getIdeasCompare.js'
import type { IdeasSummaryAnswer } from '../../src/market/ideas/getIdeasSummary.js'
import { IDEA_MAJORS } from '../../src/market/ideas/readIdeas.js'
import type { RiskPair } from '../../src/market/risk/getRiskPairs.js'
import type { Signals } from '../../src/market/signals/getSignals.js'
import { broadcast, builderClient, ownerWallet } from '../helpers/builderCalls.js'
import { eventually } from '../helpers/eventually.js'
import { type Instance, payer, useWorld } from '../helpers/serviceWorld.js'

/** The devnet Hermes simulator asks for its key, as Hermes does. */
const HERMES_KEY = { headers: { authorization: `Bearer ${DEVNET_PYTH_API_KEY}` } }

// The ideas reads on the devnet, paid with the official client, every figure recomputed here from the
// simulators' own bars (their wire formats) with this file's own arithmetic of the documented rule; the
// leverage checked against /v1/risk/pairs; an idea's inputs built, broadcast and filled on the diamond.
const sw = useWorld()
/** Reads at one instant: the daily window is fixed whatever the wall clock does meanwhile. */
let frozen: Instance
const FIXED_MS = Date.now()
const DAY = 86_400

beforeAll(async () => {
  frozen = await sw.instance({}, { clock: () => FIXED_MS })
}, 120_000)

interface RawBar {
  t: number
  high: number
  low: number
  close: number
}

const iso = (s: number) => new Date(s * 1000).toISOString()

/** The bars of a basis for `symbol` (365 daily or 120 six-hour), straight off the simulator the service reads. */
async function basisBars(symbol: string, gran = DAY, count = 365): Promise<RawBar[]> {
  const inst = UNIVERSE.find((i) => i.from === symbol && i.to === 'USD')
  if (inst === undefined) throw new Error(`no devnet instrument ${symbol}/USD`)
  const end = Math.floor(FIXED_MS / 1000 / gran) * gran
  const start = end - count * gran
  const up = frozen.config.upstreams
  if (inst.coinbaseProduct !== null) {
    const rows: number[][] = []
    // The exchange serves at most 300 bars per request, both ends inclusive.
    for (let from = start; from < end; from += 300 * gran) {
      const to = Math.min(end - gran, from + 299 * gran)
      const url = `${up.coinbaseExchange}/products/${inst.coinbaseProduct}/candles?granularity=${gran}&start=${iso(from)}&end=${iso(to)}`
      rows.push(...((await (await fetch(url)).json()) as number[][]))
    }
    return rows
      .map(([t, low, high, , close]) => ({
        t: t as number,
        low: low as number,
        high: high as number,
        close: close as number,
      }))
      .sort((a, b) => a.t - b.t)
  }
  const resolution = gran === DAY ? '1D' : String(gran / 60)
  const url = `${up.pythBenchmarks}/v1/shims/tradingview/history?symbol=${encodeURIComponent(inst.pythSymbol)}&resolution=${resolution}&from=${start}&to=${end - 1}`
  const h = (await (await fetch(url, HERMES_KEY)).json()) as {
    t: number[]
    h: number[]
    l: number[]
    c: number[]
  }
  return h.t.map((t, i) => ({ t, high: h.h[i] as number, low: h.l[i] as number, close: h.c[i] as number }))
}
const dailyBars = (symbol: string) => basisBars(symbol)

type Truth =
  | { kind: 'neutral'; reason: 'no_trend' | 'stop_too_wide' }
  | {
      kind: 'idea'
      direction: 'long' | 'short'
      conviction: number
      stop: number
      target: number
      leverage: number
      liquidation: number
      edge: number
    }

/** The documented rule, written out again: EMA(20), Wilder ATR(14), position and slope in ATRs, … */
function truthOf(bars: readonly RawBar[], entry: number, maxLeverage: number): Truth {
  const closes = bars.map((b) => b.close)
  const emas: number[] = []
  let ema = closes.slice(0, 20).reduce((a, b) => a + b, 0) / 20
  emas.push(ema)
  for (const c of closes.slice(20)) {
    ema = ema + (2 / 21) * (c - ema)
    emas.push(ema)
  }
  const trs = bars
    .slice(1)
    .map((b, i) =>
      Math.max(
        b.high - b.low,
        Math.abs(b.high - (bars[i] as RawBar).close),
        Math.abs(b.low - (bars[i] as RawBar).close),
      ),
    )
  let atr = trs.slice(0, 14).reduce((a, b) => a + b, 0) / 14
  for (const tr of trs.slice(14)) atr = (13 * atr + tr) / 14
  const now = emas.at(-1) as number
  const d = ((closes.at(-1) as number) - now) / atr
  const s = (now - (emas.at(-6) as number)) / atr
  if (!(atr > 0) || !((d > 0 && s > 0) || (d < 0 && s < 0))) return { kind: 'neutral', reason: 'no_trend' }
  const sign = d > 0 ? 1 : -1
  const conviction = Math.tanh(Math.min(Math.abs(d), Math.abs(s)))
  const stopFrac = (2 * atr) / entry
  const ranges = bars.map((b) => (b.high - b.low) / b.close).sort((x, y) => x - y)
  const p90 = ranges[Math.ceil(0.9 * ranges.length) - 1] as number
  const need = stopFrac + Math.max(0.5 * stopFrac, p90)
  let leverage = Math.min(Math.floor(0.9 / need), Math.floor(maxLeverage))
  if (leverage < 2) {
    if (0.9 / 1.1 >= need) leverage = 1.1
    else return { kind: 'neutral', reason: 'stop_too_wide' }
  }
  return {
    kind: 'idea',
    direction: sign > 0 ? 'long' : 'short',
    conviction,
    stop: entry - sign * 2 * atr,
    target: entry + sign * 4 * atr,
    leverage,
    liquidation: entry * (1 - (sign * 0.9) / leverage),
    edge: conviction * 2 * stopFrac - (1 - conviction) * stopFrac,
  }
}

const close = (actual: number | null, expected: number, rel = 1e-8) =>
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(Math.abs(expected) * rel + 1e-12)

/** The oracle's latest price of a pair's feed now, from the Hermes simulator. */
async function oraclePrice(symbol: string): Promise<number> {
  const up = frozen.config.upstreams
  const feeds = (await (await fetch(`${up.pythHermes}/v2/price_feeds`, HERMES_KEY)).json()) as {
    id: string
    attributes: { base: string; quote_currency: string }
  }[]
  const inst = UNIVERSE.find((i) => i.from === symbol && i.to === 'USD')
  const feed = feeds.find(
    (f) => f.attributes.base === (inst?.pythSymbol.split('.').at(-1)?.split('/')[0] ?? symbol),
  )
  const res = (await (
    await fetch(`${up.pythHermes}/v2/updates/price/latest?ids[]=${feed?.id}&parsed=true`, HERMES_KEY)
  ).json()) as { parsed: { price: { price: string; expo: number } }[] }
  const p = res.parsed[0]?.price
  return Number(p?.price) * 10 ** (p?.expo ?? 0)
}

let pairs: RiskPair[]
let loose: Ideas
const truths = new Map<string, Truth>()
const entries = new Map<string, number>()

describe('GET /v1/ideas', () => {
  test('behavior: paid with the official client, every idea of the 20 majors equals the rule recomputed from the simulators’ bars, with leverage within /v1/risk/pairs', async () => {
    const who = payer(3)
    const pay = wrapFetchWithPayment(fetch, who.client)
    const before = await sw.usdcBalance(who.account.address)
    const [ideasRes, pairsRes] = await Promise.all([
      pay(`${frozen.url}/v1/ideas?worthwhileness=loose&limit=12`),
      pay(`${frozen.url}/v1/risk/pairs`),
    ])
    expect(ideasRes.status).toBe(200)
    expect(pairsRes.status).toBe(200)
    loose = (await ideasRes.json()) as Ideas
    pairs = ((await pairsRes.json()) as { pairs: RiskPair[] }).pairs
    expect([loose.worthwhileness, loose.basis, loose.ranking]).toEqual(['loose', '1d-1y', 'edge-rate'])
    expect(loose.disclaimer).toBe('Indicative, not advice')
    // Every default major is listed on the devnet and has a year of daily bars.
    expect(loose.skipped.unknown).toEqual([])
    expect(loose.skipped.unavailable).toEqual([])
    expect(loose.skipped.insufficientHistory).toEqual([])

    const bars = await Promise.all(IDEA_MAJORS.map((s) => dailyBars(s)))
    for (const b of bars) expect(b).toHaveLength(365)
    const listed = new Map(loose.ideas.map((i) => [i.symbol, i]))
    IDEA_MAJORS.forEach((symbol, k) => {
      const pair = pairs.find((p) => p.symbol === `${symbol}/USD`) as RiskPair
      const idea = listed.get(symbol)
      // The entry is the oracle price the service read; the rule is recomputed at that entry.
      const entry = idea?.entry ?? ((bars[k] as RawBar[]).at(-1) as RawBar).close
      const truth = truthOf(bars[k] as RawBar[], entry, pair.maxLeverage)
      truths.set(symbol, truth)
      if (idea === undefined) {
        // Not listed: neutral (with the rule's reason) or an idea whose edge is not positive.
        const neutral = loose.skipped.neutral.find((n) => n.symbol === symbol)
        if (truth.kind === 'neutral') expect(neutral?.reason, symbol).toBe(truth.reason)
        else expect(truth.edge <= 0 || loose.ideas.length === 12, symbol).toBe(true)
        return
      }
      entries.set(symbol, idea.entry)
      expect(truth.kind, symbol).toBe('idea')
      if (truth.kind !== 'idea') return
      expect(idea.pairIndex).toBe(pair.pairIndex)
      expect(idea.category).toBe(pair.group)
      expect(idea.maxLeverage).toBe(pair.maxLeverage)
      expect(idea.leverage).toBeLessThanOrEqual(pair.maxLeverage)
      expect(idea.direction).toBe(truth.direction)
      expect(idea.leverage).toBe(truth.leverage)
      close(idea.conviction, truth.conviction, 1e-3)
      close(idea.stop, truth.stop)
      // The list form: target, liquidation and edge are the single-asset read's; open carries the target.
      expect([idea.target, idea.liquidation, idea.edge]).toEqual([null, null, null])
      expect(idea.open).toMatchObject({
        pairIndex: pair.pairIndex,
        long: truth.direction === 'long',
        leverage: truth.leverage,
        markPrice: idea.entry,
        tradeType: 0,
        sl: idea.stop,
      })
      close(idea.open.tp, truth.target)
      expect(truth.edge).toBeGreaterThan(0)
    })
    // The ranking: edge × leverage, descending, over the recomputed edges.
    const rates = loose.ideas.map((i) => {
      const t = truths.get(i.symbol) as Extract<Truth, { kind: 'idea' }>
      return t.edge * t.leverage
    })
    expect(rates).toEqual([...rates].sort((a, b) => b - a))
    // Everything positive the rule finds is listed, up to the limit.
    const positive = [...truths.values()].filter((t) => t.kind === 'idea' && t.edge > 0).length
    expect(loose.ideas).toHaveLength(Math.min(12, positive))
    // The entries are the oracle's prices (the Hermes simulator, read again now: it moves slowly).
    for (const i of loose.ideas.slice(0, 3)) close(await oraclePrice(i.symbol), i.entry, 5e-3)
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 10_000n - 1_000n)
  })

  test('behavior: strict keeps edge ≥ 0.008 and one idea per direction per category; ranking=conviction orders by conviction; symbol order does not change the answer', async () => {
    const pay = wrapFetchWithPayment(fetch, payer(3).client)
    const get = async (q: string) => {
      const res = await pay(`${frozen.url}/v1/ideas?${q}`)
      expect(res.status, q).toBe(200)
      return (await res.json()) as Ideas
    }
    const forward = IDEA_MAJORS.join(',')
    const backward = [...IDEA_MAJORS].reverse().join(',')
    // The two orders one after the other: run together, each fetched the live marks itself, and under load
    // the two fetches straddled a price tick (the fifth digit differed); one after the other, the second
    // reads the marks the first cached, so only the order of the symbols differs.
    sw.worldClock.hold(Date.now())
    const strict = await get(`symbols=${forward}&limit=12`)
    const [strictReversed, byConviction] = await Promise.all([
      get(`symbols=${backward}&limit=12`),
      get(`worthwhileness=loose&limit=12&ranking=conviction`),
    ]).finally(() => sw.worldClock.follow())
    // Selection, order, direction, conviction, edge and leverage identical; the prices within 0.1% (each
    // read fetched the live mark, and a tick may fall between them).
    const shape = (i: IdeaRead) => ({
      ...i,
      entry: 0,
      stop: 0,
      target: 0,
      open: { ...i.open, markPrice: 0, sl: 0, tp: 0 },
    })
    expect(strictReversed.ideas.map(shape)).toEqual(strict.ideas.map(shape))
    for (const [k, i] of strictReversed.ideas.entries()) {
      expect(Math.abs(i.entry / (strict.ideas[k] as IdeaRead).entry - 1)).toBeLessThan(0.001)
    }
    expect(strict.worthwhileness).toBe('strict')
    const edgeOf = (i: IdeaRead) => (truths.get(i.symbol) as Extract<Truth, { kind: 'idea' }>).edge
    const seen = new Set<string>()
    for (const i of strict.ideas) {
      expect(edgeOf(i)).toBeGreaterThanOrEqual(0.008)
      const key = `${i.category}/${i.direction}`
      expect(seen.has(key), key).toBe(false)
      seen.add(key)
    }
    // Each strict idea is the first of its (category, direction) in the loose edge-rate order.
    const firsts = loose.ideas.filter((i) => edgeOf(i) >= 0.008)
    const expected = firsts.filter(
      (i, k) => firsts.findIndex((j) => j.category === i.category && j.direction === i.direction) === k,
    )
    expect(strict.ideas.map((i) => i.symbol)).toEqual(expected.map((i) => i.symbol))
    const conv = byConviction.ideas.map((i) => i.conviction)
    expect(conv).toEqual([...conv].sort((a, b) => b - a))
    expect(new Set(byConviction.ideas.map((i) => i.symbol))).toEqual(
      new Set(loose.ideas.map((i) => i.symbol)),
    )
  })

  test('behavior: an idea’s open inputs are accepted by POST /v1/tx/risk/open, simulate cleanly, broadcast and fill on the diamond with that leverage, TP and SL', async () => {
    const idea = loose.ideas.find((i) => i.category === 'crypto') ?? loose.ideas[0]
    if (idea === undefined) throw new Error('the devnet gave no idea to open')
    const owner = ownerWallet(sw, 4)
    const me = owner.account.address
    // The venue's minimum position is 1,500 USD of size.
    const collateralUsdc = Math.ceil(1600 / idea.leverage)
    const client = builderClient(sw, frozen)
    const built = await client.post<RiskOpenAction>('/v1/tx/risk/open', {
      ...idea.open,
      collateralUsdc,
      owner: me,
    })
    expect(built.status, JSON.stringify(built.body)).toBe(200)
    // A 200 is a bundle the builder simulated from the owner without a revert, one report per step.
    expect(built.body.simulation.steps).toHaveLength(built.body.steps.length)
    const before = await sw.usdcBalance(me)
    await broadcast(sw.chain, owner, built.body)
    expect(before - (await sw.usdcBalance(me))).toBe(BigInt(collateralUsdc) * 1_000_000n)
    await sw.world.keeperTick()
    const trades = await eventually(async () => {
      const t = await sw.chain.readContract({
        address: BASE_ADDRESSES.GtradeDiamond,
        abi: gtradeStandInAbi,
        functionName: 'getTrades',
        args: [me as Address],
      })
      expect(t.length).toBeGreaterThan(0)
      return t
    })
    const trade = trades.find((t) => t.pairIndex === idea.pairIndex)
    expect(trade).toBeDefined()
    expect(trade?.long).toBe(idea.direction === 'long')
    expect(Number(trade?.leverage)).toBe(Math.round(idea.leverage * 1000))
    expect(Number(trade?.tp) / 1e10).toBeCloseTo(idea.open.tp, 6)
    expect(Number(trade?.sl) / 1e10).toBeCloseTo(idea.open.sl, 6)
  })

  test('behavior: basis=6h-30d reads 120 six-hour bars per market; each idea equals the rule recomputed on them', async () => {
    const pay = wrapFetchWithPayment(fetch, payer(3).client)
    const symbols = ['BTC', 'ETH', 'SOL', 'EUR', 'XAU', 'SPY', 'NVDA', 'DOGE']
    const res = await pay(
      `${frozen.url}/v1/ideas?symbols=${symbols.join(',')}&basis=6h-30d&worthwhileness=loose&limit=12`,
    )
    expect(res.status).toBe(200)
    const six = (await res.json()) as Ideas
    expect(six.basis).toBe('6h-30d')
    expect(six.skipped.insufficientHistory).toEqual([])
    const listed = new Map(six.ideas.map((i) => [i.symbol, i]))
    for (const symbol of symbols) {
      const bars = await basisBars(symbol, 21_600, 120)
      expect(bars, symbol).toHaveLength(120)
      const pair = pairs.find((p) => p.symbol === `${symbol}/USD`) as RiskPair
      const idea = listed.get(symbol)
      const truth = truthOf(bars, idea?.entry ?? (bars.at(-1) as RawBar).close, pair.maxLeverage)
      if (idea === undefined) {
        const neutral = six.skipped.neutral.find((n) => n.symbol === symbol)
        if (truth.kind === 'neutral') expect(neutral?.reason, symbol).toBe(truth.reason)
        else expect(truth.edge, symbol).toBeLessThanOrEqual(0)
        continue
      }
      expect(truth.kind, symbol).toBe('idea')
      if (truth.kind !== 'idea') continue
      expect([idea.direction, idea.leverage], symbol).toEqual([truth.direction, truth.leverage])
      close(idea.stop, truth.stop)
      close(idea.open.tp, truth.target)
      close(idea.conviction, truth.conviction, 1e-3)
    }
    expect(six.ideas.length).toBeGreaterThan(0)
  })

  test('error: all unknown symbols are 400 naming symbols, a bad worthwhileness or limit 13 is 400 naming it; no USDC moves', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const pay = wrapFetchWithPayment(fetch, who.client)
    for (const [q, field] of [
      ['symbols=NOPE,ZZZ', 'symbols'],
      ['worthwhileness=lax', 'worthwhileness'],
      ['limit=13', 'limit'],
      ['basis=1h-1d', 'basis'],
    ] as const) {
      const res = await pay(`${frozen.url}/v1/ideas?${q}`)
      expect(res.status, q).toBe(400)
      expect(((await res.json()) as ErrorBody).error.field, q).toBe(field)
    }
    // A known symbol beside an unknown one is served; the unknown one is reported.
    const mixed = await pay(`${frozen.url}/v1/ideas?symbols=BTC,NOPE`)
    expect(mixed.status).toBe(200)
    expect(((await mixed.json()) as Ideas).skipped.unknown).toEqual(['NOPE'])
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - 10_000n)
  })
})

describe('insufficient history', () => {
  test('behavior: ten days after the world’s first bar, every market is short of history: an answer that says so per symbol, never a made-up idea; the asset and pair reads say insufficient_history', async () => {
    // The reads at an instant 10 days after the devnet's price origin, through the service's own market
    // adapters (a paid request cannot carry that clock: the payment's validity window would be in 2015).
    // The world's own first instant: under DEVNET_DATE it reads the path whole days ahead or behind, so
    // its first bar is that many days before or after the path's origin on the clock.
    const early = (sw.world.sim.historyStartSec + 10 * DAY + 3600) * 1000
    const market = frozen.services.deps.market
    const [ideas, asset, pair] = await Promise.all([
      getIdeas(
        market,
        { symbols: ['BTC', 'EUR'], limit: 6, worthwhileness: 'loose', basis: '1d-1y', ranking: 'edge-rate' },
        early,
      ),
      getAssetIdea(market, 'BTC', '1d-1y', early),
      getIdeasCompare(market, { a: 'BTC', b: 'EUR', basis: '1d-1y' }, early),
    ])
    expect(ideas.ideas).toEqual([])
    expect(ideas.skipped.insufficientHistory).toEqual([
      { symbol: 'BTC', needed: 25, got: 10 },
      { symbol: 'EUR', needed: 25, got: 10 },
    ])
    expect([asset.status, asset.needed, asset.got, asset.idea, asset.hedge]).toEqual([
      'insufficient_history',
      25,
      10,
      null,
      null,
    ])
    expect(asset.alternatives).toEqual([])
    expect([
      pair.status,
      pair.bars,
      pair.needed,
      pair.ratio,
      pair.zScore,
      pair.ratioTrend,
      pair.suggestion,
    ]).toEqual(['insufficient_history', 10, 20, null, null, null, null])
  })
})

describe('GET /v1/ideas/asset/{sym}, /v1/ideas/summary, /v1/ideas/compare', () => {
  test('behavior: the single-asset read adds target, liquidation and edge, recomputed; alternatives beat it on edge × leverage and the hedge is the opposite side', async () => {
    const pay = wrapFetchWithPayment(fetch, payer(5).client)
    const idea = loose.ideas[loose.ideas.length - 1] as IdeaRead
    const res = await pay(`${frozen.url}/v1/ideas/asset/${idea.symbol.toLowerCase()}`)
    expect(res.status).toBe(200)
    const a = (await res.json()) as AssetIdea
    expect([a.symbol, a.status, a.basis]).toEqual([idea.symbol, 'ok', '1d-1y'])
    const t = truths.get(idea.symbol) as Extract<Truth, { kind: 'idea' }>
    const got = a.idea as IdeaRead
    // Entry may be a newer oracle read; the rule is recomputed at the answer's own entry.
    const bars = await dailyBars(idea.symbol)
    const pair = pairs.find((p) => p.symbol === `${idea.symbol}/USD`) as RiskPair
    const at = truthOf(bars, got.entry, pair.maxLeverage) as Extract<Truth, { kind: 'idea' }>
    expect(got.direction).toBe(t.direction)
    close(got.target, at.target)
    close(got.liquidation, at.liquidation)
    // The edge is published to 6 decimals: within that rounding (5e-7) of the recomputed one.
    expect(Math.abs((got.edge as number) - at.edge)).toBeLessThanOrEqual(Math.abs(at.edge) * 1e-4 + 5e-7)
    expect(got.open.tp).toBe(got.target)
    const rate = (i: IdeaRead) => (i.edge as number) * i.leverage
    for (const alt of a.alternatives) {
      expect(alt.direction).toBe(got.direction)
      expect(rate(alt)).toBeGreaterThan(rate(got))
    }
    expect(a.alternatives.length).toBeLessThanOrEqual(3)
    if (a.hedge !== null) expect(a.hedge.direction).not.toBe(got.direction)
    // Every listed idea of the same direction ranked above it in edge-rate is offered (up to 3).
    const better = loose.ideas.filter((i) => i.direction === got.direction && i.symbol !== got.symbol)
    expect(a.alternatives.map((x) => x.symbol)).toEqual(
      better
        .filter((i) => {
          const ti = truths.get(i.symbol) as Extract<Truth, { kind: 'idea' }>
          return ti.edge * ti.leverage > at.edge * at.leverage
        })
        .slice(0, 3)
        .map((i) => i.symbol),
    )
  })

  test('behavior: the summary’s breadth, best long and short, and top per category equal the recomputed reads of the 20 majors (picks among edge ≥ 0.008)', async () => {
    const pay = wrapFetchWithPayment(fetch, payer(5).client)
    const res = await pay(`${frozen.url}/v1/ideas/summary`)
    expect(res.status).toBe(200)
    const s = (await res.json()) as IdeasSummaryAnswer
    expect(s.universe).toEqual([...IDEA_MAJORS])
    const ideas = [...truths.entries()].filter(
      (e): e is [string, Extract<Truth, { kind: 'idea' }>] => e[1].kind === 'idea',
    )
    // Breadth counts every direction the rule found, whatever its edge.
    expect(s.breadth).toEqual({
      long: ideas.filter(([, t]) => t.direction === 'long').length,
      short: ideas.filter(([, t]) => t.direction === 'short').length,
      neutral: truths.size - ideas.length,
    })
    // The picks are drawn from the ideas with edge ≥ 0.008 (strict, the default), as GET /v1/ideas lists.
    expect([s.worthwhileness, s.minEdge]).toEqual(['strict', 0.008])
    const eligible = ideas.filter(([, t]) => t.edge >= 0.008)
    expect([...s.eligible].sort()).toEqual(eligible.map(([sym]) => sym).sort())
    const best = (xs: typeof ideas) =>
      [...xs].sort((x, y) => y[1].conviction - x[1].conviction)[0]?.[0] ?? null
    expect(s.bestLong?.symbol ?? null).toBe(best(eligible.filter(([, t]) => t.direction === 'long')))
    expect(s.bestShort?.symbol ?? null).toBe(best(eligible.filter(([, t]) => t.direction === 'short')))
    const categoryOf = (sym: string) => (pairs.find((p) => p.symbol === `${sym}/USD`) as RiskPair).group
    const categories = [...new Set(eligible.map(([sym]) => categoryOf(sym)))].sort()
    expect(Object.keys(s.topByCategory)).toEqual(categories)
    for (const c of categories) {
      expect(s.topByCategory[c]?.symbol, c).toBe(best(eligible.filter(([sym]) => categoryOf(sym) === c)))
    }
    // The others with a direction are below the threshold, each with its edge.
    const below = ideas.filter(([, t]) => t.edge < 0.008)
    expect(s.skipped.filtered.map((f) => f.symbol).sort()).toEqual(below.map(([sym]) => sym).sort())
    for (const f of s.skipped.filtered) {
      expect([f.reason, f.threshold]).toEqual(['edge_below_threshold', 0.008])
      expect(f.edge as number, f.symbol).toBeLessThanOrEqual(0.008)
      // Where the truth was recomputed at the oracle's entry (a loose idea), the same edge: the oracle may
      // have ticked between the reads (the edge is ∝ 1 ÷ entry).
      const truth = truths.get(f.symbol) as Extract<Truth, { kind: 'idea' }>
      if (entries.has(f.symbol)) close(f.edge, truth.edge, 1e-2)
    }
  })

  test('behavior: the pair read’s ratio, relative strength, z-score and correlation equal a recomputation from both legs’ bars', async () => {
    const pay = wrapFetchWithPayment(fetch, payer(5).client)
    const res = await pay(`${frozen.url}/v1/ideas/compare?a=ETH&b=BTC`)
    expect(res.status).toBe(200)
    const c = (await res.json()) as IdeasCompare
    const [eth, btc] = await Promise.all([dailyBars('ETH'), dailyBars('BTC')])
    expect(c.status).toBe('ok')
    expect(c.bars).toBe(365)
    expect([c.from, c.to]).toEqual([eth[0]?.t, eth.at(-1)?.t])
    const pa = eth.map((b) => b.close)
    const pb = btc.map((b) => b.close)
    const n = pa.length
    const x = pa.map((v, i) => Math.log(v / (pb[i] as number)))
    const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / xs.length
    const sd = (xs: number[]) => Math.sqrt(mean(xs.map((v) => (v - mean(xs)) ** 2)))
    close(c.ratio, (pa[n - 1] as number) / (pb[n - 1] as number))
    close(
      c.relativeStrength,
      ((pa[n - 1] as number) / (pa[0] as number) - 1) * 100 -
        ((pb[n - 1] as number) / (pb[0] as number) - 1) * 100,
      1e-4,
    )
    // The ratio's trend: the least-squares slope of x on the bar number, against σx over the window.
    const mi = (n - 1) / 2
    const slope =
      x.reduce((acc, v, i) => acc + (i - mi) * (v - mean(x)), 0) /
      x.reduce((acc, _, i) => acc + (i - mi) ** 2, 0)
    close(c.ratioSlopePctPerBar, Math.expm1(slope) * 100, 1e-4)
    expect(c.ratioTrend).toBe(Math.abs(slope * (n - 1)) < sd(x) ? 'flat' : slope > 0 ? 'up' : 'down')
    const z = ((x[n - 1] as number) - mean(x)) / sd(x)
    close(c.zScore, z, 1e-4)
    const ra = pa.slice(1).map((v, i) => Math.log(v / (pa[i] as number)))
    const rb = pb.slice(1).map((v, i) => Math.log(v / (pb[i] as number)))
    const cov = mean(ra.map((v, i) => (v - mean(ra)) * ((rb[i] as number) - mean(rb))))
    close(c.correlation, cov / (sd(ra) * sd(rb)), 1e-4)
    expect(c.suggestion).toEqual(
      z >= 2 ? { long: 'BTC', short: 'ETH' } : z <= -2 ? { long: 'ETH', short: 'BTC' } : null,
    )
    expect(c.a.symbol).toBe('ETH')
    expect(c.a.status).toBe(truths.get('ETH')?.kind === 'idea' ? 'ok' : 'neutral')
  })

  test('error: an unknown sym is 404 naming sym, compare a = b is 400 naming b and an unknown b 404 naming b; none charged', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const pay = wrapFetchWithPayment(fetch, who.client)
    for (const [path, status, field] of [
      ['/v1/ideas/asset/NOPE', 404, 'sym'],
      ['/v1/ideas/compare?a=ETH&b=eth', 400, 'b'],
      ['/v1/ideas/compare?a=ETH&b=NOPE', 404, 'b'],
      ['/v1/ideas/summary?basis=2d', 400, 'basis'],
    ] as const) {
      const res = await pay(`${frozen.url}${path}`)
      expect(res.status, path).toBe(status)
      expect(((await res.json()) as ErrorBody).error.field, path).toBe(field)
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
  })
})

describe('GET /v1/alpha', () => {
  test('behavior: without taker the bundle skips arbitrage and says so; its ideas, signals and summary equal the three reads made at the same time; $0.01', async () => {
    const who = payer(6)
    const pay = wrapFetchWithPayment(fetch, who.client)
    const before = await sw.usdcBalance(who.account.address)
    const first10 = IDEA_MAJORS.slice(0, 10).join(',')
    const [alphaRes, ideasRes, signalsRes, summaryRes] = await Promise.all([
      pay(`${frozen.url}/v1/alpha`),
      pay(`${frozen.url}/v1/ideas?limit=6`),
      pay(`${frozen.url}/v1/signals?symbols=${first10}`),
      pay(`${frozen.url}/v1/ideas/summary`),
    ])
    for (const r of [alphaRes, ideasRes, signalsRes, summaryRes]) expect(r.status).toBe(200)
    const alpha = (await alphaRes.json()) as Alpha
    const ideas = (await ideasRes.json()) as Ideas
    const signals = (await signalsRes.json()) as Signals
    const summary = (await summaryRes.json()) as IdeasSummaryAnswer
    expect(alpha.arbitrage).toBeNull()
    expect(alpha.arbitrageSkipped).toMatch(/taker/)
    // The rule's outputs that do not depend on the oracle tick the reads happened to see.
    const core = (xs: readonly IdeaRead[]) =>
      xs.map((i) => [i.symbol, i.direction, i.conviction, i.pairIndex])
    expect(core(alpha.ideas)).toEqual(core(ideas.ideas))
    expect(alpha.ideas.length).toBeGreaterThan(0)
    expect(alpha.signals).toEqual(
      signals.signals.map((x) => ({ symbol: x.symbol, bias: x.bias, conviction: x.conviction })),
    )
    expect(alpha.signals).toHaveLength(10)
    expect(alpha.summary.breadth).toEqual(summary.breadth)
    expect(alpha.summary.universe).toEqual(summary.universe)
    expect(alpha.summary.bestLong?.symbol).toBe(summary.bestLong?.symbol)
    expect(alpha.summary.bestShort?.symbol).toBe(summary.bestShort?.symbol)
    // alpha, ideas and summary $0.01 each, signals $0.001; then the bundle alone costs exactly $0.01.
    const alone = await sw.usdcBalance(who.account.address)
    expect(before - alone).toBe(31_000n)
    expect((await pay(`${frozen.url}/v1/alpha?symbols=BTC,ETH&limit=1`)).status).toBe(200)
    expect(alone - (await sw.usdcBalance(who.account.address))).toBe(10_000n)
  })

  test('behavior: with taker the bundle carries the arbitrage read for target, budget and slippage; its routes equal GET /v1/arbitrage’s', async () => {
    const who = payer(6)
    const pay = wrapFetchWithPayment(fetch, who.client)
    const q = `target=USDC&budget=500&slippageBps=50&taker=${who.account.address}`
    const [alphaRes, arbRes] = await Promise.all([
      pay(`${frozen.url}/v1/alpha?symbols=BTC,ETH,EUR&${q}`),
      pay(`${frozen.url}/v1/arbitrage?${q}`),
    ])
    expect(alphaRes.status).toBe(200)
    expect(arbRes.status).toBe(200)
    const alpha = (await alphaRes.json()) as Alpha
    const arb = (await arbRes.json()) as Arbitrage
    expect(alpha.arbitrageSkipped).toBeNull()
    const a = alpha.arbitrage as Arbitrage
    expect([a.target, a.budgetUsd, a.token]).toEqual(['USDC', 500, arb.token])
    // Settling a payment mines a block but moves no pool: the same cycles, legs and amounts.
    const legs = (x: Arbitrage) => x.routes.map((r) => [r.path, r.amountIn, r.legs.map((l) => l.swap)])
    expect(legs(a)).toEqual(legs(arb))
    for (const r of a.routes) for (const l of r.legs) expect(l.swap.slippageBps).toBe(50)
    expect(alpha.signals.map((x) => x.symbol)).toEqual(['BTC', 'ETH', 'EUR'])
    expect(alpha.summary.universe).toEqual(['BTC', 'ETH', 'EUR'])
  })

  test('error: a bad target, a negative budget or an invalid taker is a 400 naming it; not charged', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const pay = wrapFetchWithPayment(fetch, who.client)
    for (const [q, field] of [
      ['target=DOGE', 'target'],
      ['budget=-1', 'budget'],
      ['taker=0x123', 'taker'],
      ['symbols=NOPE', 'symbols'],
    ] as const) {
      const res = await pay(`${frozen.url}/v1/alpha?${q}`)
      expect(res.status, q).toBe(400)
      expect(((await res.json()) as ErrorBody).error.field, q).toBe(field)
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
  })
})

describe('every asked market accounted for (issue 36)', () => {
  // Eight listed markets of four categories (four crypto, so strict's cap has something to cap) and one
  // ticker the venue does not list. What each market reads depends on the date the world plays
  // (DEVNET_DATE); the assertions are the invariant, never one market's outcome.
  const ASKED = ['BTC', 'ETH', 'SOL', 'DOGE', 'EUR', 'XAU', 'SPY', 'NVDA', 'NOPE']
  type Skipped = Ideas['skipped']
  type Filtered = Skipped['filtered'][number]

  /** Every market the answer names, once per place it is named in. */
  const places = (listed: readonly { symbol: string }[], skipped: Skipped) => [
    ...listed.map((i) => i.symbol),
    ...skipped.neutral.map((n) => n.symbol),
    ...skipped.insufficientHistory.map((n) => n.symbol),
    ...skipped.unknown,
    ...skipped.unavailable,
    ...skipped.filtered.map((f) => f.symbol),
  ]

  /** Each skipped entry says why, and a filtered one carries the threshold and what its reason needs. */
  function expectReasons(listed: readonly IdeaRead[], skipped: Skipped, threshold: number, limit: number) {
    for (const n of skipped.neutral) expect(['no_trend', 'stop_too_wide']).toContain(n.reason)
    for (const h of skipped.insufficientHistory) expect([h.needed, h.got < 25]).toEqual([25, true])
    const all: { symbol: string; category: string; direction: string }[] = [...listed, ...skipped.filtered]
    for (const f of skipped.filtered) {
      const at = `${f.symbol} ${f.reason}`
      expect(f.threshold, at).toBe(threshold)
      if (f.reason === 'edge_below_threshold') {
        // The edge to 6 decimals: an edge just under 0.008 may show as 0.008.
        if (f.edge !== null) expect(f.edge, at).toBeLessThanOrEqual(threshold)
        expect([f.keptBy, f.rank], at).toEqual([null, null])
      } else {
        expect(f.edge as number, at).toBeGreaterThanOrEqual(threshold)
      }
      if (f.reason === 'category_direction_taken') {
        const holder = all.find((x) => x.symbol === f.keptBy)
        expect(holder, at).toBeDefined()
        expect([holder?.category, holder?.direction], at).toEqual([f.category, f.direction])
        expect(f.keptBy, at).not.toBe(f.symbol)
      }
      if (f.reason === 'beyond_limit') {
        expect(f.rank as number, at).toBeGreaterThan(limit)
        expect(listed, at).toHaveLength(limit)
      }
    }
    expect(listed.length).toBeLessThanOrEqual(limit)
  }

  const filteredOf = (skipped: Skipped, symbol: string): Filtered | undefined =>
    skipped.filtered.find((f) => f.symbol === symbol)

  test('behavior: /v1/ideas, /v1/alpha, /v1/ideas/summary and the pair legs name every asked market once, each skip with its reason and threshold, the summary’s picks among the eligible', async () => {
    const pay = wrapFetchWithPayment(fetch, payer(5).client)
    const get = async <T>(path: string): Promise<T> => {
      const res = await pay(`${frozen.url}${path}`)
      expect(res.status, path).toBe(200)
      return (await res.json()) as T
    }
    const asked = ASKED.join(',')
    // Every read at one instant of the world, so the answers describe the same market.
    sw.worldClock.hold(Date.now())
    const reads = await (async () => {
      const lists: { q: string; limit: number; worthwhileness: 'strict' | 'loose'; answer: Ideas }[] = []
      for (const worthwhileness of ['strict', 'loose'] as const)
        for (const limit of [1, 2, 12]) {
          const q = `symbols=${asked}&worthwhileness=${worthwhileness}&limit=${limit}`
          lists.push({ q, limit, worthwhileness, answer: await get<Ideas>(`/v1/ideas?${q}`) })
        }
      const alpha = await get<Alpha>(`/v1/alpha?symbols=${asked}&limit=2`)
      const summary = await get<IdeasSummaryAnswer>('/v1/ideas/summary')
      const pairsRead: IdeasCompare[] = []
      for (const [a, b] of [
        ['BTC', 'ETH'],
        ['SOL', 'DOGE'],
        ['EUR', 'XAU'],
        ['SPY', 'NVDA'],
      ])
        pairsRead.push(await get<IdeasCompare>(`/v1/ideas/compare?a=${a}&b=${b}`))
      return { lists, alpha, summary, pairsRead }
    })().finally(() => sw.worldClock.follow())

    for (const { q, limit, worthwhileness, answer } of reads.lists) {
      expect(places(answer.ideas, answer.skipped).sort(), q).toEqual([...ASKED].sort())
      expect(answer.skipped.unknown, q).toEqual(['NOPE'])
      const threshold = worthwhileness === 'strict' ? 0.008 : 0
      expect(answer.minEdge, q).toBe(threshold)
      expectReasons(answer.ideas, answer.skipped, threshold, limit)
    }
    // A larger limit moves beyond_limit entries into the list and nothing else.
    const strictAll = reads.lists.find((l) => l.worthwhileness === 'strict' && l.limit === 12)
      ?.answer as Ideas
    for (const { limit, worthwhileness, answer } of reads.lists) {
      if (worthwhileness !== 'strict') continue
      const moved = answer.skipped.filtered.filter((f) => f.reason === 'beyond_limit').map((f) => f.symbol)
      expect([...answer.ideas.map((i) => i.symbol), ...moved], `limit ${limit}`).toEqual(
        strictAll.ideas.map((i) => i.symbol),
      )
    }

    // The bundle: ideas and skipped as GET /v1/ideas answers them for strict and limit 2.
    const { alpha } = reads
    const strict2 = reads.lists.find((l) => l.worthwhileness === 'strict' && l.limit === 2)?.answer as Ideas
    expect(places(alpha.ideas, alpha.skipped).sort()).toEqual([...ASKED].sort())
    expectReasons(alpha.ideas, alpha.skipped, 0.008, 2)
    expect(alpha.ideas.map((i) => i.symbol)).toEqual(strict2.ideas.map((i) => i.symbol))
    expect(alpha.skipped).toEqual(strict2.skipped)
    // Its summary: drawn from the eligible markets; every asked market in eligible or skipped once; a pick
    // missing from ideas is named in notInIdeas with the reason of its entry in the bundle's skipped.
    const sum = alpha.summary
    expect([sum.worthwhileness, sum.minEdge]).toEqual(['strict', 0.008])
    expect([...sum.eligible, ...places([], sum.skipped)].sort()).toEqual([...ASKED].sort())
    for (const f of sum.skipped.filtered)
      expect([f.reason, f.threshold]).toEqual(['edge_below_threshold', 0.008])
    const picks = [sum.bestLong, sum.bestShort, ...Object.values(sum.topByCategory)].filter(
      (p): p is IdeaRead => p !== null,
    )
    const listed = new Set(alpha.ideas.map((i) => i.symbol))
    for (const p of picks) {
      expect(sum.eligible, p.symbol).toContain(p.symbol)
      const note = sum.notInIdeas.find((n) => n.symbol === p.symbol)
      if (listed.has(p.symbol)) expect(note, p.symbol).toBeUndefined()
      else expect(note?.reason, p.symbol).toBe(filteredOf(alpha.skipped, p.symbol)?.reason)
    }
    expect(sum.notInIdeas.map((n) => n.reason)).not.toContain('edge_below_threshold')
    expect(sum.notInIdeas.every((n) => picks.some((p) => p.symbol === n.symbol))).toBe(true)
    // Every listed idea is eligible: the listing only narrows the summary's field.
    for (const i of alpha.ideas) expect(sum.eligible).toContain(i.symbol)

    // The standalone summary over the 20 majors: the same account, and its eligible markets are what
    // strict passes on the edge.
    const { summary } = reads
    expect([...summary.eligible, ...places([], summary.skipped)].sort()).toEqual([...IDEA_MAJORS].sort())
    for (const p of [summary.bestLong, summary.bestShort, ...Object.values(summary.topByCategory)])
      if (p !== null) expect(summary.eligible).toContain(p.symbol)
    for (const f of summary.skipped.filtered) expect(f.reason).toBe('edge_below_threshold')

    // The pair legs: worthwhile.strict false exactly when the strict listing filters the market out on its edge.
    for (const c of reads.pairsRead) {
      for (const leg of [c.a, c.b]) {
        const f = filteredOf(strictAll.skipped, leg.symbol)
        if (leg.status !== 'ok') {
          expect(leg.worthwhile, leg.symbol).toBeNull()
          expect(f, leg.symbol).toBeUndefined()
          continue
        }
        expect(leg.worthwhile?.minEdge).toEqual({ strict: 0.008, loose: 0 })
        expect(leg.worthwhile?.strict, leg.symbol).toBe(f?.reason !== 'edge_below_threshold')
        expect(leg.worthwhile?.strict, leg.symbol).toBe((leg.idea?.edge as number) >= 0.008)
        expect(leg.worthwhile?.loose, leg.symbol).toBe((leg.idea?.edge as number) > 0)
      }
    }
  })
})
