import { createPricePath, type Ohlcv, ORIGIN_SEC, type PricePath } from './pricePath.js'
import { createRandomStream, hash32, stringKey } from './random.js'
import { InvalidRangeError, UnknownSymbolError } from './simulatorErrors.js'
import { findInstrument, type Instrument, UNIVERSE } from './universe.js'

/** Milliseconds since the Unix epoch; injected so tests and the devnet control time. */
export interface SimClock {
  now(): number
}

export interface Candle {
  /** Bucket start, unix seconds. */
  time: number
  open: number
  high: number
  low: number
  close: number
  /** Base units. */
  volume: number
}

export interface Stats24h {
  /** Price exactly 24 hours before `at`. */
  open: number
  high: number
  low: number
  last: number
  /** Base units traded over the last 24 hours. */
  volume: number
  volume30d: number
  /** (last / open − 1) × 100. */
  changePct: number
  /** The instant the stats describe, ms. */
  at: number
}

export interface PerpQuote {
  pairIndex: number
  symbol: string
  /** The price that fills on the perp venue: index plus a small premium that wanders within the spread. */
  mark: number
  /** Oracle spot used for liquidations. */
  index: number
}

export interface OpenInterest {
  longUsd: number
  shortUsd: number
}

export interface PerpView {
  quote(pairIndex: number, atMs?: number): PerpQuote
  mark(pairIndex: number, atMs?: number): number
  index(pairIndex: number, atMs?: number): number
  /** Synthetic crowd positioning (the rest of the venue), hourly steps, leaning with 24h momentum. */
  openInterest(pairIndex: number, atMs?: number): OpenInterest
}

export interface CandleOptions {
  /** Shift of bucket boundaries, seconds (e.g. weekly bars starting on Monday). Default 0. */
  alignOffsetSec?: number
}

export interface MarketSimulator {
  readonly seed: number
  readonly clock: SimClock
  readonly universe: readonly Instrument[]
  /** Earliest instant with a price, unix seconds. */
  readonly historyStartSec: number
  /** Throws UnknownSymbolError. Accepts the spellings findInstrument does. */
  instrument(symbol: string, quote?: string): Instrument
  spot(symbol: string, atMs?: number): number
  /**
   * Candles whose buckets start in [alignDown(startSec), endSec) and before now, oldest first. The bucket
   * containing now is partial (it covers up to now); buckets that have not started yet are omitted.
   */
  candles(
    symbol: string,
    startSec: number,
    endSec: number,
    granularitySec: number,
    options?: CandleOptions,
  ): Candle[]
  /** OHLCV of the path over [fromSec, min(toSec, now)), or null if empty. */
  window(symbol: string, fromSec: number, toSec: number): Ohlcv | null
  stats24h(symbol: string, atMs?: number): Stats24h
  readonly perp: PerpView
}

export interface CreateMarketSimulatorOptions {
  seed: number
  clock: SimClock
  /**
   * Whole days the market is read ahead of (+) or behind (−) the clock: every price, candle, premium and
   * crowd figure at clock time t is the path's at t + shift, so the world trades as it would on another
   * date while its timestamps stay the clock's (DEVNET_DATE; docs/testing.md). Whole days keep every
   * bucket boundary where it was. Default 0.
   */
  shiftDays?: number
}

/** Refuses requests that would walk millions of buckets (a bug, not a use). */
const MAX_CANDLES_PER_CALL = 100_000
const DAY = 86_400

export function createMarketSimulator(options: CreateMarketSimulatorOptions): MarketSimulator {
  const seed = options.seed >>> 0
  const { clock } = options
  const shiftDays = options.shiftDays ?? 0
  if (!Number.isInteger(shiftDays))
    throw new InvalidRangeError(`shiftDays must be whole days, got ${shiftDays}`)
  const shiftSec = shiftDays * DAY
  /** The first clock time with a price: the path's origin, seen through the shift. */
  const historyStartSec = ORIGIN_SEC - shiftSec
  const paths = new Map<string, PricePath>()

  const instrument = (symbol: string, quote?: string): Instrument => {
    const found = findInstrument(symbol, quote)
    if (!found) throw new UnknownSymbolError(quote ? `${symbol}/${quote}` : symbol)
    return found
  }

  /** The instrument's path, read at clock time (the shift applied here and in the knots below). */
  const pathOf = (inst: Instrument): PricePath => {
    let path = paths.get(inst.symbol)
    if (!path) {
      const inner = createPricePath({
        seed,
        key: stringKey(inst.symbol),
        basePrice: inst.basePrice,
        annualVolatility: inst.annualVolatility,
        dailyVolumeUsd: inst.dailyVolumeUsd,
      })
      path =
        shiftSec === 0
          ? inner
          : {
              priceAt: (tSec) => inner.priceAt(tSec + shiftSec),
              window: (fromSec, toSec) => inner.window(fromSec + shiftSec, toSec + shiftSec),
            }
      paths.set(inst.symbol, path)
    }
    return path
  }

  const nowSec = (): number => clock.now() / 1000
  const secOf = (atMs: number | undefined): number => (atMs === undefined ? nowSec() : atMs / 1000)

  const byPairIndex = (pairIndex: number): Instrument => {
    const inst = UNIVERSE[pairIndex]
    if (!inst) throw new UnknownSymbolError(`pairIndex ${pairIndex}`)
    return inst
  }

  const spotOf = (inst: Instrument, tSec: number): number => pathOf(inst).priceAt(tSec)

  const perpQuote = (pairIndex: number, atMs?: number): PerpQuote => {
    const inst = byPairIndex(pairIndex)
    const t = secOf(atMs)
    const index = spotOf(inst, t)
    // Premium knots every 5 minutes, linearly interpolated, bounded by three quarters of the spread.
    const knot = Math.floor((t + shiftSec) / 300)
    const key = stringKey(inst.symbol)
    const u0 = createRandomStream(hash32(seed, key, 0x9e, knot)).uniform() * 2 - 1
    const u1 = createRandomStream(hash32(seed, key, 0x9e, knot + 1)).uniform() * 2 - 1
    const f = (t + shiftSec) / 300 - knot
    const premium = (inst.spreadPct / 100) * 0.75 * (u0 + (u1 - u0) * f)
    return { pairIndex, symbol: inst.symbol, mark: index * (1 + premium), index }
  }

  const perp: PerpView = {
    quote: perpQuote,
    mark: (pairIndex, atMs) => perpQuote(pairIndex, atMs).mark,
    index: (pairIndex, atMs) => spotOf(byPairIndex(pairIndex), secOf(atMs)),
    openInterest(pairIndex, atMs) {
      const inst = byPairIndex(pairIndex)
      const hourStart = Math.floor(secOf(atMs) / 3600) * 3600
      const rnd = createRandomStream(
        hash32(seed, stringKey(inst.symbol), 0x01, (hourStart + shiftSec) / 3600),
      )
      const total = inst.openInterestUsd * Math.exp(0.25 * rnd.normal())
      const sigmaDay = inst.annualVolatility / Math.sqrt(365)
      const momentum =
        hourStart - DAY < historyStartSec
          ? 0
          : Math.log(spotOf(inst, hourStart) / spotOf(inst, hourStart - DAY)) / sigmaDay
      // The crowd chases momentum, with noise; shares stay away from 0/100 % as real books do.
      const longShare = Math.min(0.92, Math.max(0.08, 0.5 + 0.15 * Math.tanh(momentum) + 0.08 * rnd.normal()))
      return { longUsd: total * longShare, shortUsd: total * (1 - longShare) }
    },
  }

  const windowOf = (inst: Instrument, fromSec: number, toSec: number): Ohlcv | null =>
    pathOf(inst).window(fromSec, Math.min(toSec, nowSec()))

  return {
    seed,
    clock,
    universe: UNIVERSE,
    historyStartSec,
    instrument,
    spot: (symbol, atMs) => spotOf(instrument(symbol), secOf(atMs)),
    window: (symbol, fromSec, toSec) => windowOf(instrument(symbol), fromSec, toSec),
    candles(symbol, startSec, endSec, granularitySec, candleOptions = {}) {
      const inst = instrument(symbol)
      if (!Number.isInteger(granularitySec) || granularitySec <= 0) {
        throw new InvalidRangeError(
          `granularity must be a positive integer of seconds, got ${granularitySec}`,
        )
      }
      if (!Number.isFinite(startSec) || !Number.isFinite(endSec)) {
        throw new InvalidRangeError('start and end must be finite unix seconds')
      }
      const offset = candleOptions.alignOffsetSec ?? 0
      const now = nowSec()
      const lastStart = Math.min(endSec, now)
      let t =
        Math.floor((Math.max(startSec, historyStartSec) - offset) / granularitySec) * granularitySec + offset
      if ((lastStart - t) / granularitySec > MAX_CANDLES_PER_CALL) {
        throw new InvalidRangeError(`range spans more than ${MAX_CANDLES_PER_CALL} candles`)
      }
      const path = pathOf(inst)
      const rows: Candle[] = []
      // A bucket is always whole (up to now): endSec only decides which buckets are listed.
      for (; t < lastStart; t += granularitySec) {
        const w = path.window(t, Math.min(t + granularitySec, now))
        if (w) rows.push({ time: t, ...w })
      }
      return rows
    },
    stats24h(symbol, atMs) {
      const inst = instrument(symbol)
      const t = secOf(atMs)
      const path = pathOf(inst)
      const day = path.window(t - DAY, t)
      const month = path.window(t - 30 * DAY, t)
      const last = path.priceAt(t)
      const open = path.priceAt(t - DAY)
      return {
        open,
        high: day?.high ?? last,
        low: day?.low ?? last,
        last,
        volume: day?.volume ?? 0,
        volume30d: month?.volume ?? 0,
        changePct: (last / open - 1) * 100,
        at: t * 1000,
      }
    },
    perp,
  }
}
