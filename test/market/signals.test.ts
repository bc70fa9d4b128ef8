import { wrapFetchWithPayment } from '@x402/fetch'
import { describe, expect, test } from 'vitest'
import type { ErrorBody } from '../../src/errors.js'
import type { Signal, Signals } from '../../src/market/signals/getSignals.js'
import { macdHistogram, percentB, wilderRsi } from '../helpers/referenceIndicators.js'
import { payer, useInstance, useWorld } from '../helpers/serviceWorld.js'
import { PYTH_KEY } from '../helpers/upstreamKeys.js'

const sw = useWorld()
const svc = useInstance(sw)

const HOUR = 3600
const BARS = 168
/** The blend as documented in the route description (not imported from the code under test). */
const WEIGHTS = {
  rsi: 0.15,
  macd: 0.2,
  bollinger: 0.15,
  vwap: 0.1,
  sma: 0.15,
  headAndShoulders: 0.15,
  fib: 0.1,
}

interface RawBar {
  time: number
  high: number
  low: number
  close: number
  volume: number | null
}

/** The exchange simulator's hourly bars for the window the service says it used, straight off the wire. */
async function exchangeBars(product: string, lastBarTime: number): Promise<RawBar[]> {
  const iso = (s: number) => new Date(s * 1000).toISOString()
  const url = `${svc.config.upstreams.coinbaseExchange}/products/${product}/candles?granularity=${HOUR}&start=${iso(lastBarTime - (BARS - 1) * HOUR)}&end=${iso(lastBarTime)}`
  const rows = (await (await fetch(url)).json()) as number[][]
  return rows
    .map(([time, low, high, , close, volume]) => ({
      time: time as number,
      high: high as number,
      low: low as number,
      close: close as number,
      volume: volume as number,
    }))
    .sort((a, b) => a.time - b.time)
}

/** The oracle-history simulator's hourly bars for the same window (it serves no volume). */
async function oracleBars(symbol: string, lastBarTime: number): Promise<RawBar[]> {
  const url = `${svc.config.upstreams.pythBenchmarks}/v1/shims/tradingview/history?symbol=${encodeURIComponent(symbol)}&resolution=60&from=${lastBarTime - (BARS - 1) * HOUR}&to=${lastBarTime}`
  const h = (await (await fetch(url, PYTH_KEY)).json()) as {
    t: number[]
    h: number[]
    l: number[]
    c: number[]
  }
  return h.t.map((time, i) => ({
    time,
    high: h.h[i] as number,
    low: h.l[i] as number,
    close: h.c[i] as number,
    volume: null,
  }))
}

/** Every number the blend states, checked against the raw bars and the documented formulas. */
function checkAgainstBars(s: Signal, bars: readonly RawBar[]): void {
  expect(bars).toHaveLength(BARS)
  expect(s.bars).toBe(BARS)
  expect(bars.at(-1)?.time).toBe(s.lastBarTime)
  expect(bars.every((b, i) => i === 0 || b.time - (bars[i - 1] as RawBar).time === HOUR)).toBe(true)
  const closes = bars.map((b) => b.close)
  const last = closes.at(-1) as number
  expect(s.close).toBe(last)
  // RSI and %B are stated at 4 decimals; the MACD histogram at 10 significant digits.
  expect(Math.abs((s.rsi14 as number) - wilderRsi(closes))).toBeLessThanOrEqual(1e-4)
  expect(Math.abs((s.bollingerPctB as number) - percentB(closes))).toBeLessThanOrEqual(1e-4)
  expect(Math.abs((s.macdHistogram as number) - macdHistogram(closes))).toBeLessThanOrEqual(last * 1e-9)

  if (bars[0]?.volume === null) {
    expect(s.vwapPosition).toBeNull()
    expect(s.parts.vwap).toBeNull()
  } else {
    const day = bars.slice(-24)
    const vwap =
      day.reduce((a, b) => a + ((b.high + b.low + b.close) / 3) * (b.volume as number), 0) /
      day.reduce((a, b) => a + (b.volume as number), 0)
    expect(Math.abs((s.vwapPosition as number) - (last / vwap - 1) * 100)).toBeLessThanOrEqual(1e-4)
  }

  // Blend: weighted mean of the stated parts over the non-null ones, then the thresholds.
  let sum = 0
  let weight = 0
  for (const [k, w] of Object.entries(WEIGHTS)) {
    const p = s.parts[k as keyof typeof WEIGHTS]
    if (p === null) continue
    expect(p).toBeGreaterThanOrEqual(0)
    expect(p).toBeLessThanOrEqual(1)
    sum += w * p
    weight += w
  }
  const sentiment = s.sentiment as number
  expect(Math.abs(sentiment - sum / weight)).toBeLessThanOrEqual(5e-4)
  expect(s.bias).toBe(sentiment >= 0.55 ? 'long' : sentiment <= 0.45 ? 'short' : 'neutral')
  expect(s.conviction).toBeCloseTo(2 * Math.abs(sentiment - 0.5), 4)
  expect(s.parts.rsi).toBeCloseTo(wilderRsi(closes) / 100, 3)
  expect(s.parts.bollinger).toBeCloseTo(Math.min(1, Math.max(0, percentB(closes))), 3)
}

describe('GET /v1/signals', () => {
  test('behavior: paid with the official client, crypto and forex answer 200 with indicators equal to a recomputation from the simulators’ own bars', async () => {
    const who = payer(2)
    const pay = wrapFetchWithPayment(fetch, who.client)
    const before = await sw.usdcBalance(who.account.address)

    const crypto = await pay(`${svc.url}/v1/signals?symbols=BTC,ETH`)
    expect(crypto.status).toBe(200)
    const c = (await crypto.json()) as Signals
    expect(c.unknown).toEqual([])
    expect(c.signals.map((s) => [s.symbol, s.source, s.granularitySec])).toEqual([
      ['BTC', 'BTC-USD', HOUR],
      ['ETH', 'ETH-USD', HOUR],
    ])
    for (const s of c.signals) checkAgainstBars(s, await exchangeBars(s.source, s.lastBarTime as number))

    const forex = await pay(`${svc.url}/v1/signals?symbols=EUR&cls=Forex`)
    expect(forex.status).toBe(200)
    const f = (await forex.json()) as Signals
    const eur = f.signals[0] as Signal
    expect(eur.source).toBe('FX.EUR/USD')
    checkAgainstBars(eur, await oracleBars(eur.source, eur.lastBarTime as number))

    // Two calls at $0.001 each.
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 2000n)
  })

  test('behavior: a ticker without history is listed apart and the rest is answered', async () => {
    const pay = wrapFetchWithPayment(fetch, payer(2).client)
    const res = await pay(`${svc.url}/v1/signals?symbols=XAU,NOPE,xau&cls=Commodities`)
    expect(res.status).toBe(200)
    const body = (await res.json()) as Signals
    expect(body.unknown).toEqual(['NOPE'])
    expect(body.signals.map((s) => [s.symbol, s.source])).toEqual([['XAU', 'Metal.XAU/USD']])
    const xau = body.signals[0] as Signal
    checkAgainstBars(xau, await oracleBars(xau.source, xau.lastBarTime as number))
  })

  test('error: every ticker unknown is a 400 unknown_symbol naming them, and no USDC moves', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const pay = wrapFetchWithPayment(fetch, who.client)
    const res = await pay(`${svc.url}/v1/signals?symbols=NOPE,ZZZ`)
    expect(res.status).toBe(400)
    expect(res.headers.get('payment-response')).toBeNull()
    const body = (await res.json()) as ErrorBody
    expect(body.error).toMatchObject({
      code: 'unknown_symbol',
      field: 'symbols',
      details: { unknown: ['NOPE', 'ZZZ'] },
    })
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toHaveLength(0)
  })
})
