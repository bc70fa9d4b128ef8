import { type Context, Hono } from 'hono'
import type { MarketSimulator, SimClock } from '../simulator/marketSimulator.js'
import type { Instrument } from '../simulator/universe.js'
import { normaliseFeedId, pythAttributes, pythFeedId } from './pythFeeds.js'
import { limitRate, type RateLimit, requireKey } from './upstreamGuards.js'
import { mantissa } from './wireFormat.js'

/**
 * Pyth Hermes v2 (hermes.pyth.network): latest parsed price updates and the feed catalogue.
 * Price objects encode price/conf as integer strings with an integer expo (value = price × 10^expo)
 * and publish_time as unix seconds (protocols.md §7c).
 *
 * UNCERTAIN: `binary.data` is a deterministic placeholder blob (magic "PNAU" + the parsed fields), not
 * a Wormhole-signed accumulator update — nothing onchain in the devnet verifies Pyth updates.
 * Error bodies are plain text, as Hermes's Rust handlers write them: a bad query string is serde_qs's
 * "Failed to deserialize query string. Error: …" (400), unknown ids "Price ids not found: 0x…" (404).
 * The contract is the official SDK's (test/fixtures/upstreams/pyth, held by test/upstreams/pyth.contract).
 *
 * Gates, as Pyth documents them: the API key (`Authorization: Bearer`; `401 unauthorized` without it, the
 * body as observed by third parties) and 10 requests per 10 s per IP, past which every request is 429 for
 * 60 s (Pyth's rate-limits page). UNCERTAIN: the 429's body, and whether a key raises the limit.
 */

export interface PythHermesAppOptions {
  sim: MarketSimulator
  clock?: SimClock
  /**
   * The Pyth API key every request must carry as `Authorization: Bearer <key>` (Hermes since Pyth's Core
   * upgrade answers 401 without one); undefined: no key asked (the simulator's own unit tests).
   */
  apiKey?: string
  /** Default: Pyth's documented public limit, PYTH_RATE_LIMIT. */
  rateLimit?: RateLimit
}

/** Pyth's documented limit for Hermes and Benchmarks: 10 requests per 10 s per IP, then 60 s of 429s. */
export const PYTH_RATE_LIMIT: RateLimit = { max: 10, windowMs: 10_000, lockOutMs: 60_000 }

/** Pyth's gateway answers a request without a valid key `401 unauthorized` (plain text, as observed). */
export function guardPyth(app: Hono, apiKey: string | undefined, rateLimit: RateLimit, path = '*'): void {
  limitRate(
    app,
    rateLimit,
    (c, retryAfterSec) => {
      c.header('retry-after', String(retryAfterSec))
      return c.text('Too Many Requests', 429)
    },
    path,
  )
  if (apiKey === undefined) return
  requireKey(
    app,
    `Bearer ${apiKey}`,
    (c) => c.req.header('authorization'),
    (c) => c.text('unauthorized', 401),
  )
}

/** Confidence as a fraction of price, by class: tighter for deep markets. */
const CONF_FRACTION = {
  Crypto: 0.0003,
  Forex: 0.00005,
  Commodities: 0.0002,
  Indices: 0.0002,
  Stocks: 0.0004,
} as const

/** Hermes's AssetType (the SDK's enum, serde snake_case: exact, lower case). */
const PYTH_QUERY_TYPES = new Set([
  'crypto',
  'fx',
  'equity',
  'metal',
  'rates',
  'crypto_redemption_rate',
  'commodities',
  'crypto_index',
  'crypto_nav',
  'eco',
  'kalshi',
])
const badQuery = (c: Context, error: string) =>
  c.text(`Failed to deserialize query string. Error: ${error}`, 400)

export function createPythHermesApp(options: PythHermesAppOptions): Hono {
  const { sim } = options
  const clock = options.clock ?? sim.clock
  const byId = new Map<string, Instrument>()
  for (const inst of sim.universe) byId.set(pythFeedId(inst), inst)

  const priceObject = (inst: Instrument, value: number, publishTime: number) => ({
    price: mantissa(value, inst.pythExpo).toString(),
    conf: mantissa(value * CONF_FRACTION[inst.assetClass], inst.pythExpo).toString(),
    expo: inst.pythExpo,
    publish_time: publishTime,
  })

  const parsedUpdate = (inst: Instrument, publishTime: number) => {
    const id = pythFeedId(inst)
    const value = sim.spot(inst.symbol, publishTime * 1000)
    // EMA over the last ~5 minutes, sampled per minute: smooth enough and cheap.
    let ema = 0
    for (let k = 0; k < 5; k++) ema += sim.spot(inst.symbol, (publishTime - 60 * k) * 1000)
    ema /= 5
    return {
      id,
      price: priceObject(inst, value, publishTime),
      ema_price: priceObject(inst, ema, publishTime),
      metadata: {
        // Pythnet slots tick every ~400 ms.
        slot: Math.floor((publishTime - 1_600_000_000) * 2.5),
        proof_available_time: publishTime + 1,
        prev_publish_time: publishTime - 1,
      },
    }
  }

  const app = new Hono()
  app.notFound((c) => c.text('Not Found', 404))
  guardPyth(app, options.apiKey, options.rateLimit ?? PYTH_RATE_LIMIT)

  app.get('/v2/price_feeds', (c) => {
    const query = c.req.query('query')?.toLowerCase()
    const assetType = c.req.query('asset_type')
    if (assetType !== undefined && !PYTH_QUERY_TYPES.has(assetType)) {
      return badQuery(c, `asset_type: unknown variant \`${assetType}\``)
    }
    const feeds = sim.universe
      .filter((inst) => assetType === undefined || inst.pythAssetType.toLowerCase() === assetType)
      .filter(
        (inst) =>
          // Hermes matches the query against the symbol attribute only.
          query === undefined || inst.pythSymbol.toLowerCase().includes(query),
      )
      .map((inst) => ({ id: pythFeedId(inst), attributes: pythAttributes(inst) }))
    return c.json(feeds)
  })

  app.get('/v2/updates/price/latest', (c) => {
    const rawIds = [...(c.req.queries('ids[]') ?? []), ...(c.req.queries('ids') ?? [])]
    if (rawIds.length === 0) return badQuery(c, 'missing field `ids`')
    const ids: string[] = []
    for (const raw of rawIds) {
      const id = normaliseFeedId(raw)
      if (!id) return badQuery(c, `Invalid price id ${raw}`)
      ids.push(id)
    }
    const flags: Record<string, boolean> = {}
    for (const name of ['parsed', 'ignore_invalid_price_ids'] as const) {
      const raw = c.req.query(name)
      if (raw !== undefined && raw !== 'true' && raw !== 'false')
        return badQuery(c, `${name}: provided string was not \`true\` or \`false\``)
      if (raw !== undefined) flags[name] = raw === 'true'
    }
    const encodingRaw = c.req.query('encoding')
    if (encodingRaw !== undefined && encodingRaw !== 'hex' && encodingRaw !== 'base64')
      return badQuery(c, `encoding: unknown variant \`${encodingRaw}\`, expected \`hex\` or \`base64\``)
    const ignoreInvalid = flags.ignore_invalid_price_ids === true
    const missing = ids.filter((id) => !byId.has(id))
    if (missing.length > 0 && !ignoreInvalid)
      return c.text(`Price ids not found: ${missing.map((id) => `0x${id}`).join(', ')}`, 404)
    const instruments = ids.flatMap((id) => {
      const inst = byId.get(id)
      return inst ? [inst] : []
    })
    const publishTime = Math.floor(clock.now() / 1000)
    const parsed = instruments.map((inst) => parsedUpdate(inst, publishTime))
    const encoding = encodingRaw ?? 'hex'
    const blob = placeholderUpdateBlob(parsed)
    const body: Record<string, unknown> = {
      binary: { encoding, data: [encoding === 'hex' ? blob.toString('hex') : blob.toString('base64')] },
    }
    // Hermes's server defaults `parsed` to true (latest_price_updates.rs).
    if (flags.parsed !== false) body.parsed = parsed
    return c.json(body)
  })

  return app
}

interface ParsedPrice {
  id: string
  price: { price: string; conf: string; expo: number; publish_time: number }
}

function placeholderUpdateBlob(updates: readonly ParsedPrice[]): Buffer {
  const parts: Buffer[] = [Buffer.from('PNAU', 'ascii')]
  for (const u of updates) {
    const fields = Buffer.alloc(28)
    fields.writeBigInt64BE(BigInt(u.price.price), 0)
    fields.writeBigUInt64BE(BigInt(u.price.conf), 8)
    fields.writeInt32BE(u.price.expo, 16)
    fields.writeBigInt64BE(BigInt(u.price.publish_time), 20)
    parts.push(Buffer.from(u.id, 'hex'), fields)
  }
  return Buffer.concat(parts)
}
