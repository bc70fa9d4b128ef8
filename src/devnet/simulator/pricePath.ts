import { createRandomStream, hash32, normalAt } from './random.js'

/**
 * One symbol's price history as a pure function of (seed, key, t), built top-down so that candles at
 * every granularity agree by construction.
 *
 * Daily closes follow a discretised Ornstein–Uhlenbeck process in log price (GBM with mild mean
 * reversion towards the base price, so years of history stay realistic). Each candle is then refined
 * into children (day → 4×6h → 6×1h → 4×15m → 3×5m → 5×1m) with a Brownian bridge between its open and
 * close, reflected into its [low, high]; one child is handed the parent's high and one its low, so a
 * parent's high is exactly the max of its children's highs (likewise low, volume = sum, open/close
 * chain). Within a minute the path is piecewise linear through open → high/low → low/high → close.
 * Nothing is refined until asked for, and refinement is seeded per node, so 350 daily candles touch
 * only the daily level.
 */

export const LEVEL_SECONDS = [86_400, 21_600, 3_600, 900, 300, 60] as const
const FANOUT = [4, 6, 4, 3, 5] as const
const LAST_LEVEL = LEVEL_SECONDS.length - 1
const DAY = 86_400

/** 2015-01-01T00:00:00Z: history starts here; earlier times have no price. */
export const ORIGIN_SEC = 1_420_070_400
const ORIGIN_DAY = ORIGIN_SEC / DAY

/** Mean-reversion speed per day: a half-life of ~6 weeks keeps year-scale drift within tens of percent. */
const THETA_PER_DAY = 1 / 60

/** A candle in log-price space; volume is in base units. */
interface Node {
  o: number
  h: number
  l: number
  c: number
  v: number
}

export interface Ohlcv {
  open: number
  high: number
  low: number
  close: number
  volume: number
}

export interface PricePathParams {
  seed: number
  /** Stable integer key for the symbol (see stringKey). */
  key: number
  basePrice: number
  annualVolatility: number
  dailyVolumeUsd: number
}

export interface PricePath {
  /** Price at time t (seconds, fractional allowed); t must be ≥ ORIGIN_SEC. */
  priceAt(tSec: number): number
  /** Aggregate of the path over [fromSec, toSec); null when the range is empty or before history. */
  window(fromSec: number, toSec: number): Ohlcv | null
}

const MAX_CACHED_NODES = 50_000

function reflectInto(x: number, lo: number, hi: number): number {
  const range = hi - lo
  if (!(range > 1e-15)) return lo
  const period = 2 * range
  let y = (x - lo) % period
  if (y < 0) y += period
  return lo + (y > range ? period - y : y)
}

export function createPricePath(params: PricePathParams): PricePath {
  const { seed, key } = params
  const mu = Math.log(params.basePrice)
  const sigmaDay = params.annualVolatility / Math.sqrt(365)
  const decay = Math.exp(-THETA_PER_DAY)
  const stepSd = sigmaDay * Math.sqrt((1 - decay * decay) / (2 * THETA_PER_DAY))
  const stationarySd = sigmaDay / Math.sqrt(2 * THETA_PER_DAY)
  const levelSigma = LEVEL_SECONDS.map((s) => sigmaDay * Math.sqrt(s / DAY))

  // Log price at the start of each day since the origin, grown on demand.
  const dayOpens: number[] = [mu + 0.5 * stationarySd * normalAt(seed, key, 0xd0, 0)]
  const logOpenOfDay = (dayOffset: number): number => {
    while (dayOpens.length <= dayOffset) {
      const i = dayOpens.length
      const prev = dayOpens[i - 1] as number
      dayOpens.push(mu + (prev - mu) * decay + stepSd * normalAt(seed, key, 0xd1, i))
    }
    return dayOpens[dayOffset] as number
  }

  const dayNodes = new Map<number, Node>()
  const children = new Map<number, Node[]>()

  const dayNode = (day: number): Node => {
    const cached = dayNodes.get(day)
    if (cached) return cached
    const offset = day - ORIGIN_DAY
    const o = logOpenOfDay(offset)
    const c = logOpenOfDay(offset + 1)
    const rnd = createRandomStream(hash32(seed, key, 0, day))
    const top = Math.max(o, c)
    const bottom = Math.min(o, c)
    const h = top + 0.45 * sigmaDay * rnd.exponential()
    const l = bottom - 0.45 * sigmaDay * rnd.exponential()
    // Busier days move more: volume scales with the size of the day's move.
    const activity = Math.exp(0.3 * rnd.normal()) * (0.7 + 0.3 * Math.min(3, (h - l) / sigmaDay))
    const v = (params.dailyVolumeUsd * activity) / Math.exp((o + c) / 2)
    const node = { o, h, l, c, v }
    if (dayNodes.size > MAX_CACHED_NODES) dayNodes.clear()
    dayNodes.set(day, node)
    return node
  }

  const refine = (parent: Node, level: number, index: number): Node[] => {
    const n = FANOUT[level] as number
    const sigma = levelSigma[level + 1] as number
    const rnd = createRandomStream(hash32(seed, key, level + 1, index))
    const { o, h, l, c } = parent

    const b = new Array<number>(n + 1)
    b[0] = o
    b[n] = c
    for (let i = 1; i < n; i++) {
      const prev = b[i - 1] as number
      const remaining = n - i + 1
      const mean = prev + (c - prev) / remaining
      const sd = sigma * Math.sqrt((remaining - 1) / remaining)
      b[i] = reflectInto(mean + sd * rnd.normal(), l, h)
    }
    const at = (i: number): number => b[i] as number

    // The extremes live in the child where the bridge already runs highest/lowest. If the bridge stays
    // far from the parent's extreme, pull that child's inner boundary towards it, leaving a wick of a
    // size typical for the child's own scale; otherwise the whole gap would surface as one absurd
    // one-minute spike at the bottom of the tree.
    const cap = (h - l) / 2
    let ih = 0
    for (let i = 1; i < n; i++) if (Math.max(at(i), at(i + 1)) > Math.max(at(ih), at(ih + 1))) ih = i
    const highWick = Math.min(cap, 0.3 * sigma * rnd.exponential())
    let moved = -1
    if (h - Math.max(at(ih), at(ih + 1)) > highWick) {
      const j = ih === 0 ? 1 : ih === n - 1 ? ih : at(ih) >= at(ih + 1) ? ih : ih + 1
      b[j] = h - highWick
      moved = j
    }
    let il = 0
    for (let i = 1; i < n; i++) if (Math.min(at(i), at(i + 1)) < Math.min(at(il), at(il + 1))) il = i
    const lowWick = Math.min(cap, 0.3 * sigma * rnd.exponential())
    if (Math.min(at(il), at(il + 1)) - l > lowWick) {
      const candidates = [il, il + 1].filter((j) => j > 0 && j < n && j !== moved)
      const j = candidates.length === 2 ? (at(il) <= at(il + 1) ? il : il + 1) : candidates[0]
      if (j !== undefined) b[j] = l + lowWick
    }

    const weights = new Array<number>(n)
    let total = 0
    for (let i = 0; i < n; i++) {
      const w = 0.3 + rnd.exponential()
      weights[i] = w
      total += w
    }

    const out = new Array<Node>(n)
    for (let i = 0; i < n; i++) {
      const co = at(i)
      const cc = at(i + 1)
      const ch = i === ih ? h : Math.min(h, Math.max(co, cc) + 0.3 * sigma * rnd.exponential())
      const cl = i === il ? l : Math.max(l, Math.min(co, cc) - 0.3 * sigma * rnd.exponential())
      out[i] = { o: co, h: ch, l: cl, c: cc, v: (parent.v * (weights[i] as number)) / total }
    }
    return out
  }

  const node = (level: number, index: number): Node => {
    if (level === 0) return dayNode(index)
    const fan = FANOUT[level - 1] as number
    const parentIndex = Math.floor(index / fan)
    const cacheKey = level * 2 ** 40 + parentIndex
    let kids = children.get(cacheKey)
    if (!kids) {
      kids = refine(node(level - 1, parentIndex), level - 1, parentIndex)
      if (children.size > MAX_CACHED_NODES) children.clear()
      children.set(cacheKey, kids)
    }
    return kids[index - parentIndex * fan] as Node
  }

  /** The minute's piecewise-linear path: times in [0, 1] and log prices. */
  const minuteVertices = (minute: number, m: Node): { t: number[]; x: number[] } => {
    const rnd = createRandomStream(hash32(seed, key, 0x5ec, minute))
    const t1 = 0.1 + 0.4 * rnd.uniform()
    const t2 = 0.5 + 0.4 * rnd.uniform()
    const highFirst = rnd.uniform() < 0.5
    return { t: [0, t1, t2, 1], x: [m.o, highFirst ? m.h : m.l, highFirst ? m.l : m.h, m.c] }
  }

  const valueOn = (path: { t: number[]; x: number[] }, f: number): number => {
    for (let i = 1; i < path.t.length; i++) {
      const t1 = path.t[i] as number
      if (f <= t1) {
        const t0 = path.t[i - 1] as number
        const x0 = path.x[i - 1] as number
        const x1 = path.x[i] as number
        return t1 === t0 ? x1 : x0 + ((x1 - x0) * (f - t0)) / (t1 - t0)
      }
    }
    return path.x[path.x.length - 1] as number
  }

  const logPriceAt = (tSec: number): number => {
    const minute = Math.floor(tSec / 60)
    const m = node(LAST_LEVEL, minute)
    return valueOn(minuteVertices(minute, m), tSec / 60 - minute)
  }

  interface Acc {
    o: number
    h: number
    l: number
    c: number
    v: number
    empty: boolean
  }

  const merge = (acc: Acc, o: number, h: number, l: number, c: number, v: number): void => {
    if (acc.empty) {
      acc.o = o
      acc.h = h
      acc.l = l
      acc.empty = false
    } else {
      if (h > acc.h) acc.h = h
      if (l < acc.l) acc.l = l
    }
    acc.c = c
    acc.v += v
  }

  const collect = (level: number, index: number, from: number, to: number, acc: Acc): void => {
    const size = LEVEL_SECONDS[level] as number
    const start = index * size
    const end = start + size
    const n = node(level, index)
    if (from <= start && end <= to) {
      merge(acc, n.o, n.h, n.l, n.c, n.v)
      return
    }
    if (level === LAST_LEVEL) {
      const path = minuteVertices(index, n)
      const fa = Math.max(0, (from - start) / size)
      const fb = Math.min(1, (to - start) / size)
      const xa = valueOn(path, fa)
      const xb = valueOn(path, fb)
      let h = Math.max(xa, xb)
      let l = Math.min(xa, xb)
      for (let i = 1; i < path.t.length - 1; i++) {
        const t = path.t[i] as number
        if (t > fa && t < fb) {
          const x = path.x[i] as number
          if (x > h) h = x
          if (x < l) l = x
        }
      }
      merge(acc, xa, h, l, xb, n.v * (fb - fa))
      return
    }
    const childSize = LEVEL_SECONDS[level + 1] as number
    const fan = FANOUT[level] as number
    const first = Math.max(0, Math.floor((from - start) / childSize))
    const last = Math.min(fan - 1, Math.ceil((to - start) / childSize) - 1)
    for (let i = first; i <= last; i++) collect(level + 1, index * fan + i, from, to, acc)
  }

  return {
    priceAt(tSec) {
      return Math.exp(logPriceAt(Math.max(tSec, ORIGIN_SEC)))
    },
    window(fromSec, toSec) {
      const from = Math.max(fromSec, ORIGIN_SEC)
      if (!(toSec > from)) return null
      const acc: Acc = { o: 0, h: 0, l: 0, c: 0, v: 0, empty: true }
      const lastDay = Math.ceil(toSec / DAY) - 1
      for (let day = Math.floor(from / DAY); day <= lastDay; day++) collect(0, day, from, toSec, acc)
      if (acc.empty) return null
      return {
        open: Math.exp(acc.o),
        high: Math.exp(acc.h),
        low: Math.exp(acc.l),
        close: Math.exp(acc.c),
        volume: acc.v,
      }
    },
  }
}
