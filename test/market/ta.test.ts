import { wrapFetchWithPayment } from '@x402/fetch'
import { beforeAll, describe, expect, test } from 'vitest'
import type { ErrorBody } from '../../src/errors.js'
import { type ChartReadAnswer, getChartRead } from '../../src/market/getChartRead.js'
import { getTaScan, type TaScan } from '../../src/market/ta/getTaScan.js'
import { wilderRsi } from '../helpers/referenceIndicators.js'
import { type Instance, payer, useWorld } from '../helpers/serviceWorld.js'
import { PYTH_KEY } from '../helpers/upstreamKeys.js'

const sw = useWorld()
/** When the world's simulated history starts (its path's origin, seen through DEVNET_DATE's shift). */
const historyStart = () => sw.world.sim.historyStartSec
let svc: Instance
/** A second instance on a frozen clock: reads at one instant, whatever the wall clock does meanwhile. */
let frozen: Instance
const FIXED_MS = Date.now()

beforeAll(async () => {
  ;[svc, frozen] = await Promise.all([sw.instance(), sw.instance({}, { clock: () => FIXED_MS })])
}, 120_000)

interface RawBar {
  t: number
  open: number
  high: number
  low: number
  close: number
  volume: number | null
}

const iso = (s: number) => new Date(s * 1000).toISOString()

/** The exchange simulator's `count` bars of `gran` ending at `lastBarTime`, straight off the wire. */
async function exchangeBars(
  product: string,
  gran: number,
  lastBarTime: number,
  count: number,
): Promise<RawBar[]> {
  const url = `${svc.config.upstreams.coinbaseExchange}/products/${product}/candles?granularity=${gran}&start=${iso(lastBarTime - (count - 1) * gran)}&end=${iso(lastBarTime)}`
  const rows = (await (await fetch(url)).json()) as number[][]
  return rows
    .map(([t, low, high, open, close, volume]) => ({
      t: t as number,
      open: open as number,
      high: high as number,
      low: low as number,
      close: close as number,
      volume: volume as number,
    }))
    .sort((a, b) => a.t - b.t)
}

/** The oracle-history simulator's bars for the same window (TradingView resolution in minutes). */
async function oracleBars(
  symbol: string,
  gran: number,
  lastBarTime: number,
  count: number,
): Promise<RawBar[]> {
  const url = `${svc.config.upstreams.pythBenchmarks}/v1/shims/tradingview/history?symbol=${encodeURIComponent(symbol)}&resolution=${gran / 60}&from=${lastBarTime - (count - 1) * gran}&to=${lastBarTime}`
  const h = (await (await fetch(url, PYTH_KEY)).json()) as {
    t: number[]
    o: number[]
    h: number[]
    l: number[]
    c: number[]
  }
  return h.t.map((t, i) => ({
    t,
    open: h.o[i] as number,
    high: h.h[i] as number,
    low: h.l[i] as number,
    close: h.c[i] as number,
    volume: null,
  }))
}

/** The documented trend rule, with this test's own arithmetic: SMA20 slope over 5 bars in units of σ20. */
function trendOf(closes: readonly number[]): 'up' | 'down' | 'flat' {
  const sma = (end: number) => closes.slice(end - 20, end).reduce((a, b) => a + b, 0) / 20
  const w = closes.slice(-20)
  const mean = sma(closes.length)
  const sigma = Math.sqrt(w.reduce((a, b) => a + (b - mean) ** 2, 0) / 20)
  const slope = sigma > 0 ? (mean - sma(closes.length - 5)) / sigma : 0
  return slope > 0.25 ? 'up' : slope < -0.25 ? 'down' : 'flat'
}

/** Every number of a chart read, checked against the source's own bars and the documented rules. */
function checkChart(r: ChartReadAnswer, bars: readonly RawBar[], gran: number): void {
  expect(r.status).toBe('ok')
  expect(r.granularitySec).toBe(gran)
  expect(bars).toHaveLength(300)
  expect(r.barsUsed).toBe(bars.length)
  expect(r.lastBarTime).toBe(bars.at(-1)?.t)
  expect(r.experimental).toBe(true)
  expect(r.disclaimer).toBe('Indicative, not advice; experimental, no established edge')
  expect([r.needed, r.got]).toEqual([null, null])
  const closes = bars.map((b) => b.close)
  const last = closes.at(-1) as number
  expect(r.trend).toBe(trendOf(closes))
  const rsi = r.momentum?.rsi as number
  expect(Math.abs(rsi - wilderRsi(closes))).toBeLessThanOrEqual(1e-4)
  const hist = r.momentum?.macdHistogram as number
  expect(r.momentum?.state).toBe(
    hist > 0 && rsi > 50 ? 'rising' : hist < 0 && rsi < 50 ? 'falling' : 'neutral',
  )
  // Levels are closes of bars of the window, on the documented side of the last close.
  if (r.support !== null) {
    expect(r.support).toBeLessThan(last)
    expect(closes).toContain(r.support)
  }
  if (r.resistance !== null) {
    expect(r.resistance).toBeGreaterThan(last)
    expect(closes).toContain(r.resistance)
  }
  const byT = new Map(bars.map((b) => [b.t, b.close]))
  const markers = r.markers ?? []
  expect(markers.length).toBeLessThanOrEqual(20)
  for (const m of markers) expect(m.price, `${m.kind} at ${m.t}`).toBe(byT.get(m.t))
  expect(markers.map((m) => m.t)).toEqual([...markers.map((m) => m.t)].sort((a, b) => a - b))
  // The devnet serves every bar: no gaps.
  expect(r.gaps).toBe(0)
}

/** The documented dominance rule, with this test's own arithmetic. */
function buyPctOf(bars: readonly RawBar[]): { buyPct: number; basis: 'volume' | 'count' } {
  const anyVolume = bars.some((b) => (b.volume ?? 0) > 0)
  let buy = 0
  let total = 0
  for (const b of bars) {
    const w = anyVolume ? (b.volume ?? 0) : 1
    total += w
    buy += b.close > b.open ? w : b.close === b.open ? w / 2 : 0
  }
  return { buyPct: (100 * buy) / total, basis: anyVolume ? 'volume' : 'count' }
}

const side = (pct: number) => (pct >= 55 ? 'buy' : pct <= 45 ? 'sell' : 'even')
const FRAMES = [
  ['1m', 60],
  ['5m', 300],
  ['15m', 900],
] as const

describe('GET /v1/ta/{sym}', () => {
  test('behavior: paid with the official client, BTC (exchange) and EUR (oracle) chart reads equal a recomputation from the simulators’ own bars', async () => {
    const who = payer(3)
    const pay = wrapFetchWithPayment(fetch, who.client)
    const before = await sw.usdcBalance(who.account.address)

    const [btcRes, eurRes] = await Promise.all([
      pay(`${svc.url}/v1/ta/BTC?gran=1H`),
      pay(`${svc.url}/v1/ta/eur?gran=15m`),
    ])
    expect(btcRes.status).toBe(200)
    expect(eurRes.status).toBe(200)
    const btc = (await btcRes.json()) as ChartReadAnswer
    const eur = (await eurRes.json()) as ChartReadAnswer
    expect([btc.symbol, btc.source]).toEqual(['BTC', 'BTC-USD'])
    expect([eur.symbol, eur.source]).toEqual(['EUR', 'FX.EUR/USD'])
    checkChart(btc, await exchangeBars('BTC-USD', 3600, btc.lastBarTime, 300), 3600)
    checkChart(eur, await oracleBars('FX.EUR/USD', 900, eur.lastBarTime, 300), 900)
    // Whole bars only: the last bar is the one before the current one.
    expect(btc.lastBarTime).toBeLessThanOrEqual(Math.floor(Date.now() / 1000 / 3600) * 3600 - 3600)

    // Two calls at $0.005 each.
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 10_000n)
  })

  test('default: gran defaults to 900; aliases 1H = 3600 and 5m = 300 give the same answer as the seconds; two reads at one instant are equal', async () => {
    const pay = wrapFetchWithPayment(fetch, payer(3).client)
    const read = async (q: string) => {
      const res = await pay(`${frozen.url}/v1/ta/ETH${q}`)
      expect(res.status, q).toBe(200)
      return (await res.json()) as ChartReadAnswer
    }
    const [dflt, h1, h3600, m5, s300, again] = await Promise.all([
      read(''),
      read('?gran=1H'),
      read('?gran=3600'),
      read('?gran=5m'),
      read('?gran=300'),
      read('?gran=1H'),
    ])
    expect(dflt.granularitySec).toBe(900)
    expect(h1.granularitySec).toBe(3600)
    expect(m5.granularitySec).toBe(300)
    expect(h3600).toEqual(h1)
    expect(again).toEqual(h1)
    expect(s300).toEqual(m5)
    // The frozen instant decides the window: the last bar is the one before the current bar at FIXED_MS.
    expect(h1.lastBarTime).toBe(Math.floor(FIXED_MS / 1000 / 3600) * 3600 - 3600)
    checkChart(m5, await exchangeBars('ETH-USD', 300, m5.lastBarTime, 300), 300)
  })

  test('error: a bad gran is a 400 naming gran and an unknown sym a 404 naming sym; no USDC moves', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const pay = wrapFetchWithPayment(fetch, who.client)
    const [bad, unknown] = await Promise.all([
      pay(`${svc.url}/v1/ta/BTC?gran=2h`),
      pay(`${svc.url}/v1/ta/NOPE`),
    ])
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as ErrorBody).error).toMatchObject({ code: 'invalid_input', field: 'gran' })
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as ErrorBody).error).toMatchObject({
      code: 'unknown_instrument',
      field: 'sym',
    })
    expect(bad.headers.get('payment-response')).toBeNull()
    expect(unknown.headers.get('payment-response')).toBeNull()
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toHaveLength(0)
  })

  test('behavior: with fewer than 50 bars (20 minutes after the simulator’s history starts) the read is insufficient_history with every indicator null', async () => {
    // The market read on the service's own upstream clients, at an instant the simulator has 20 1m bars for
    // (a paid request cannot be made at that instant: the payment check uses the same clock).
    const nowMs = (historyStart() + 20 * 60 + 30) * 1000
    const r = await getChartRead(svc.services.deps.market, 'BTC', 60, nowMs)
    const bars = await exchangeBars('BTC-USD', 60, historyStart() + 19 * 60, 20)
    expect(bars).toHaveLength(20)
    expect(r).toEqual({
      symbol: 'BTC',
      source: 'BTC-USD',
      granularitySec: 60,
      status: 'insufficient_history',
      needed: 50,
      got: 20,
      trend: null,
      momentum: null,
      support: null,
      resistance: null,
      markers: null,
      gaps: null,
      barsUsed: 20,
      lastBarTime: bars.at(-1)?.t,
      experimental: true,
      disclaimer: 'Indicative, not advice; experimental, no established edge',
    })
  })
})

describe('GET /v1/ta/scan', () => {
  test('behavior: paid, every frame’s buyPct, dominance and the lean equal a recomputation from the raw 1m/5m/15m bars; unknown tickers listed apart', async () => {
    const who = payer(3)
    const pay = wrapFetchWithPayment(fetch, who.client)
    const before = await sw.usdcBalance(who.account.address)
    const res = await pay(`${svc.url}/v1/ta/scan?symbols=BTC,eth,NOPE,XAU`)
    expect(res.status).toBe(200)
    const body = (await res.json()) as TaScan
    expect(body.unknown).toEqual(['NOPE'])
    expect(body.disclaimer).toBe('Indicative, not advice; experimental, no established edge')
    expect(body.scans.map((s) => [s.symbol, s.source, s.status])).toEqual([
      ['BTC', 'BTC-USD', 'ok'],
      ['ETH', 'ETH-USD', 'ok'],
      ['XAU', 'Metal.XAU/USD', 'ok'],
    ])
    await Promise.all(
      body.scans.map(async (s) => {
        const pcts: number[] = []
        for (const [name, gran] of FRAMES) {
          const f = s.frames[name]
          if (f === null) throw new Error(`${s.symbol} ${name} is null`)
          const raw = s.source.endsWith('-USD')
            ? await exchangeBars(s.source, gran, f.lastBarTime, 60)
            : await oracleBars(s.source, gran, f.lastBarTime, 60)
          expect(raw, `${s.symbol} ${name}`).toHaveLength(60)
          expect(f.bars).toBe(60)
          const truth = buyPctOf(raw)
          expect(f.basis).toBe(truth.basis)
          expect(Math.abs(f.buyPct - truth.buyPct), `${s.symbol} ${name}`).toBeLessThanOrEqual(1e-4)
          expect(Math.abs(f.sellPct - (100 - truth.buyPct))).toBeLessThanOrEqual(1e-4)
          expect(f.dominance).toBe(side(truth.buyPct))
          pcts.push(truth.buyPct)
        }
        expect(s.lean).toBe(side(pcts.reduce((a, b) => a + b, 0) / pcts.length))
      }),
    )
    expect(body.scans[2]?.frames['1m']?.basis).toBe('count')
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 10_000n)
  })

  test('behavior: two scans at one instant are equal', async () => {
    const pay = wrapFetchWithPayment(fetch, payer(3).client)
    const [a, b] = await Promise.all([
      pay(`${frozen.url}/v1/ta/scan?symbols=SOL,BTC`),
      pay(`${frozen.url}/v1/ta/scan?symbols=SOL,BTC`),
    ])
    expect([a.status, b.status]).toEqual([200, 200])
    expect(await a.json()).toEqual(await b.json())
  })

  test('behavior: 30 minutes after history starts, the 5m and 15m frames (under 10 bars) are null, status insufficient_history, lean from the 1m frame alone', async () => {
    const nowMs = (historyStart() + 30 * 60 + 10) * 1000
    const scan = await getTaScan(svc.services.deps.market, ['BTC'], nowMs)
    const s = scan.scans[0]
    expect(s?.status).toBe('insufficient_history')
    expect(s?.frames['5m']).toBeNull()
    expect(s?.frames['15m']).toBeNull()
    const raw = await exchangeBars('BTC-USD', 60, historyStart() + 29 * 60, 30)
    expect(raw).toHaveLength(30)
    expect(s?.frames['1m']?.bars).toBe(30)
    const truth = buyPctOf(raw).buyPct
    expect(Math.abs((s?.frames['1m']?.buyPct as number) - truth)).toBeLessThanOrEqual(1e-4)
    expect(s?.lean).toBe(side(truth))
  })

  test('error: every ticker unknown is a 400 unknown_symbol naming symbols, and no USDC moves', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const pay = wrapFetchWithPayment(fetch, who.client)
    const res = await pay(`${svc.url}/v1/ta/scan?symbols=NOPE,ZZZ`)
    expect(res.status).toBe(400)
    expect(res.headers.get('payment-response')).toBeNull()
    expect(((await res.json()) as ErrorBody).error).toMatchObject({
      code: 'unknown_symbol',
      field: 'symbols',
      details: { unknown: ['NOPE', 'ZZZ'] },
    })
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toHaveLength(0)
  })
})
