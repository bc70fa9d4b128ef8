import { Hono } from 'hono'
import type { MarketSimulator } from '../simulator/marketSimulator.js'
import type { Instrument } from '../simulator/universe.js'
import { guardPyth } from './pythHermesApp.js'
import type { RateLimit } from './upstreamGuards.js'
import { quoteDecimals, roundTo } from './wireFormat.js'

/**
 * Pyth Benchmarks TradingView shim (benchmarks.pyth.network/v1/shims/tradingview/history), the
 * candle source for non-crypto classes, in its OpenAPI contract (test/fixtures/upstreams/pyth/
 * benchmarks.openapi.json): {s: "ok", t, o, h, l, c, v}, oldest first, bar times in unix seconds, and
 * `s: "ok"` with empty arrays when the range holds no bar; a missing or non-integer parameter is
 * FastAPI's 422 {detail: [{loc, msg, type}]}; resolutions are the contract's list.
 *
 * Gates: the Pyth API key (required since 2026-08-18, `Authorization: Bearer`) and the TradingView
 * endpoints' documented limit, 90 requests per 10 s per IP, then 60 s of 429s.
 *
 * UNCERTAIN: Pyth has no volume, so v is all zeros (what we believe the shim returns); unknown symbols
 * answer 200 {s: "error", errmsg}; the per-request bar cap (10 000 here), the errmsg strings, the 1M
 * resolution (calendar months, refused here) are our choice.
 */

const MAX_BARS = 10_000
/** UDF weeks start on Monday; the Unix epoch was a Thursday. */
const WEEK_ALIGN_SEC = 4 * 86_400

export interface PythBenchmarksAppOptions {
  sim: MarketSimulator
  /** The Pyth API key every request must carry (`Authorization: Bearer`); undefined: none asked. */
  apiKey?: string
  /** Default: the TradingView endpoints' documented limit, PYTH_TRADINGVIEW_RATE_LIMIT. */
  rateLimit?: RateLimit
}

/** Pyth's documented limit for the TradingView endpoints: 90 requests per 10 s per IP, then 60 s of 429s. */
export const PYTH_TRADINGVIEW_RATE_LIMIT: RateLimit = { max: 90, windowMs: 10_000, lockOutMs: 60_000 }

/** The resolutions the contract lists (minutes, days, weeks; months are not simulated). */
const RESOLUTIONS = new Set([
  '1',
  '2',
  '5',
  '15',
  '30',
  '60',
  '120',
  '240',
  '360',
  '720',
  'D',
  '1D',
  'W',
  '1W',
])

/** TradingView resolution → bar seconds: "1".."720" minutes, "D"/"1D", "W"/"1W" (plus "2D" style multiples). */
export function parseResolution(raw: string): number | undefined {
  const r = raw.trim().toUpperCase()
  if (!RESOLUTIONS.has(r)) return undefined
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
  guardPyth(app, options.apiKey, options.rateLimit ?? PYTH_TRADINGVIEW_RATE_LIMIT, '/v1/shims/tradingview/*')

  app.get('/v1/shims/tradingview/history', (c) => {
    // FastAPI validates the query first: every parameter required, from and to integers.
    const detail: { loc: string[]; msg: string; type: string }[] = []
    for (const name of ['symbol', 'resolution', 'from', 'to']) {
      const raw = c.req.query(name)
      if (raw === undefined) detail.push({ loc: ['query', name], msg: 'Field required', type: 'missing' })
      else if ((name === 'from' || name === 'to') && !/^-?\d+$/.test(raw))
        detail.push({
          loc: ['query', name],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          type: 'int_parsing',
        })
    }
    if (detail.length > 0) return c.json({ detail }, 422)
    const symbol = c.req.query('symbol') as string
    const resolution = parseResolution(c.req.query('resolution') as string)
    const from = Number(c.req.query('from'))
    const to = Number(c.req.query('to'))
    if (resolution === undefined) return c.json({ s: 'error', errmsg: 'Unsupported resolution' })
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
    if (bars.length === 0) return c.json({ s: 'ok', t: [], o: [], h: [], l: [], c: [], v: [] })
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
