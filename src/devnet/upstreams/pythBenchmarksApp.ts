import { Hono } from 'hono'
import type { MarketSimulator } from '../simulator/marketSimulator.js'
import type { Instrument } from '../simulator/universe.js'
import { quoteDecimals, roundTo } from './wireFormat.js'

/**
 * Pyth Benchmarks TradingView shim (benchmarks.pyth.network/v1/shims/tradingview/history), the
 * candle source for non-crypto classes. TradingView UDF shape: {s, t, o, h, l, c, v}, oldest first,
 * bar times in unix seconds; {s: "no_data"} when the range holds no bar.
 *
 * UNCERTAIN: Pyth has no volume, so v is all zeros (what we believe the shim returns); unknown symbols
 * answer 200 {s: "error", errmsg} per the UDF convention; the per-request bar cap (10 000 here) and
 * the exact errmsg strings are our choice.
 */

const MAX_BARS = 10_000
/** UDF weeks start on Monday; the Unix epoch was a Thursday. */
const WEEK_ALIGN_SEC = 4 * 86_400

export interface PythBenchmarksAppOptions {
  sim: MarketSimulator
}

/** TradingView resolution → bar seconds: "1".."720" minutes, "D"/"1D", "W"/"1W" (plus "2D" style multiples). */
export function parseResolution(raw: string): number | undefined {
  const r = raw.trim().toUpperCase()
  if (/^\d+$/.test(r)) {
    const minutes = Number(r)
    return minutes > 0 ? minutes * 60 : undefined
  }
  const m = /^(\d*)([DW])$/.exec(r)
  if (!m) return undefined
  const count = m[1] ? Number(m[1]) : 1
  if (count <= 0) return undefined
  return count * (m[2] === 'W' ? 7 * 86_400 : 86_400)
}

export function createPythBenchmarksApp(options: PythBenchmarksAppOptions): Hono {
  const { sim } = options
  const bySymbol = new Map<string, Instrument>()
  for (const inst of sim.universe) bySymbol.set(inst.pythSymbol.toUpperCase(), inst)

  const app = new Hono()
  app.notFound((c) => c.json({ detail: 'Not Found' }, 404))

  app.get('/v1/shims/tradingview/history', (c) => {
    const symbol = c.req.query('symbol')
    const resolution = parseResolution(c.req.query('resolution') ?? '')
    const from = Number(c.req.query('from'))
    const to = Number(c.req.query('to'))
    if (!symbol || resolution === undefined || !Number.isFinite(from) || !Number.isFinite(to)) {
      return c.json({ s: 'error', errmsg: 'symbol, resolution, from and to are required' })
    }
    const inst = bySymbol.get(symbol.toUpperCase())
    if (!inst) return c.json({ s: 'error', errmsg: `Symbol not found: ${symbol}` })
    if (to < from) return c.json({ s: 'error', errmsg: 'from must be before to' })
    if ((to - from) / resolution > MAX_BARS) {
      return c.json({ s: 'error', errmsg: `Requested range exceeds ${MAX_BARS} bars` })
    }
    const align = resolution % (7 * 86_400) === 0 ? WEEK_ALIGN_SEC : 0
    // UDF ranges are inclusive of `to`.
    const bars = sim
      .candles(inst.symbol, from, to + 1, resolution, { alignOffsetSec: align })
      .filter((b) => b.time >= from)
    if (bars.length === 0) return c.json({ s: 'no_data' })
    const d = quoteDecimals(inst.basePrice)
    return c.json({
      s: 'ok',
      t: bars.map((b) => b.time),
      o: bars.map((b) => roundTo(b.open, d)),
      h: bars.map((b) => roundTo(b.high, d)),
      l: bars.map((b) => roundTo(b.low, d)),
      c: bars.map((b) => roundTo(b.close, d)),
      v: bars.map(() => 0),
    })
  })

  return app
}
