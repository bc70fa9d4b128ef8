import { Hono } from 'hono'
import type { MarketSimulator, SimClock } from '../simulator/marketSimulator.js'
import type { Instrument } from '../simulator/universe.js'
import { normaliseFeedId, pythAttributes, pythFeedId } from './pythFeeds.js'
import { mantissa } from './wireFormat.js'

/**
 * Pyth Hermes v2 (hermes.pyth.network): latest parsed price updates and the feed catalogue.
 * Price objects encode price/conf as integer strings with an integer expo (value = price × 10^expo)
 * and publish_time as unix seconds (protocols.md §7c).
 *
 * UNCERTAIN: `binary.data` is a deterministic placeholder blob (magic "PNAU" + the parsed fields), not
 * a Wormhole-signed accumulator update — nothing onchain in the devnet verifies Pyth updates.
 * UNCERTAIN: error bodies are plain text, mirroring Hermes' Rust handlers ("Price ids not found: …").
 */

export interface PythHermesAppOptions {
  sim: MarketSimulator
  clock?: SimClock
  /**
   * The Pyth API key every request must carry as `Authorization: Bearer <key>` (Hermes since Pyth's Core
   * upgrade answers 401 without one); undefined: no key asked (the simulator's own unit tests).
   */
  apiKey?: string
}

/** Confidence as a fraction of price, by class: tighter for deep markets. */
const CONF_FRACTION = {
  Crypto: 0.0003,
  Forex: 0.00005,
  Commodities: 0.0002,
  Indices: 0.0002,
  Stocks: 0.0004,
} as const

const PYTH_QUERY_TYPES = new Set([
  'crypto',
  'fx',
  'equity',
  'metal',
  'rates',
  'crypto_redemption_rate',
  'commodities',
])

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
  // UNCERTAIN: the 401 body's wording (Pyth documents the status and the header, not the body).
  if (options.apiKey !== undefined) {
    const expected = `Bearer ${options.apiKey}`
    app.use('*', async (c, next) => {
      if (c.req.header('authorization') !== expected)
        return c.json({ message: 'Unauthorized: a Pyth API key is required' }, 401)
      await next()
      return undefined
    })
  }

  app.get('/v2/price_feeds', (c) => {
    const query = c.req.query('query')?.toLowerCase()
    const assetType = c.req.query('asset_type')?.toLowerCase()
    if (assetType !== undefined && !PYTH_QUERY_TYPES.has(assetType)) {
      return c.text(`Failed to deserialize query string: asset_type: unknown variant \`${assetType}\``, 400)
    }
    const feeds = sim.universe
      .filter((inst) => assetType === undefined || inst.pythAssetType.toLowerCase() === assetType)
      .filter(
        (inst) =>
          query === undefined ||
          inst.pythSymbol.toLowerCase().includes(query) ||
          inst.from.toLowerCase().includes(query),
      )
      .map((inst) => ({ id: pythFeedId(inst), attributes: pythAttributes(inst) }))
    return c.json(feeds)
  })

  app.get('/v2/updates/price/latest', (c) => {
    const rawIds = [...(c.req.queries('ids[]') ?? []), ...(c.req.queries('ids') ?? [])]
    if (rawIds.length === 0) return c.text('Failed to deserialize query string: missing field `ids`', 400)
    const ids: string[] = []
    for (const raw of rawIds) {
      const id = normaliseFeedId(raw)
      if (!id) return c.text(`Failed to deserialize query string: Invalid price id ${raw}`, 400)
      ids.push(id)
    }
    const ignoreInvalid = c.req.query('ignore_invalid_price_ids') === 'true'
    const missing = ids.filter((id) => !byId.has(id))
    if (missing.length > 0 && !ignoreInvalid) return c.text(`Price ids not found: ${missing.join(', ')}`, 404)
    const instruments = ids.flatMap((id) => {
      const inst = byId.get(id)
      return inst ? [inst] : []
    })
    const publishTime = Math.floor(clock.now() / 1000)
    const parsed = instruments.map((inst) => parsedUpdate(inst, publishTime))
    const encoding = c.req.query('encoding') === 'base64' ? 'base64' : 'hex'
    const blob = placeholderUpdateBlob(parsed)
    const body: Record<string, unknown> = {
      binary: { encoding, data: [encoding === 'hex' ? blob.toString('hex') : blob.toString('base64')] },
    }
    if (c.req.query('parsed') !== 'false') body.parsed = parsed
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
