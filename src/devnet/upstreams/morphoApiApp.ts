import { Hono } from 'hono'
import { type Address, getAddress, isAddress } from 'viem'
import type { MidnightOffer } from '../../chain/midnight.js'
import { WAD } from '../../chain/units.js'
import type { SimClock } from '../simulator/marketSimulator.js'
import type { MidnightBookSource, MidnightSourceMarket, MidnightSourceOffer } from './midnightBookSource.js'

/**
 * Morpho's API, Midnight books (api.morpho.org/v0/midnight, protocols.md §7a): `GET /v0/midnight/books`
 * with the filters `chain_ids`, `loan_tokens`, `collateral_tokens`, `maturities`, `ids` (comma lists),
 * `sort` (`maturity` or `-maturity`), `limit` (1..100, default 20) and an opaque `cursor`; the answer is
 * `{cursor, data:[…]}`, `cursor` null on the last page. Wire fields are snake_case; amounts, prices and
 * WAD parameters are decimal strings, `maturity`, `chain_id`, `tick` and `count` JSON numbers.
 *
 * Built from the devnet's own Midnight markets and the offers in its offer book: only markets not yet
 * matured are listed (as the real book listing does); each side groups the live offers by tick, best first
 * (asks: lowest price first; bids: highest first). Per level, `units` is what can still be taken and
 * `assets` the maker-side loan-token amount for it, rounded the way `take` rounds (a bid's maker pays
 * units × price rounded down, an ask's maker receives it rounded up); an offer capped by maxAssets
 * counts its remaining assets and the whole units they buy. Offers are not screened against their
 * makers' balances or collateral.
 */

export interface MorphoApiAppOptions {
  books: MidnightBookSource
  clock: SimClock
}

const MAX_LIMIT = 100
const DEFAULT_LIMIT = 20

export interface WireLevel {
  tick: number
  price: string
  units: string
  assets: string
  count: number
}

/** Executable units of an offer (an offer capped by maxAssets: the whole units its remaining assets buy). */
function takeableUnits(o: MidnightSourceOffer): bigint {
  if (o.price === 0n) return 0n
  return o.cappedByAssets ? (o.remaining * WAD) / o.price : o.remaining
}

/** Groups one side's offers into price levels, best first. */
export function priceLevels(offers: readonly MidnightSourceOffer[], buy: boolean): WireLevel[] {
  const levels = new Map<number, { price: bigint; units: bigint; assets: bigint; count: number }>()
  for (const o of offers) {
    if (o.buy !== buy || o.price === 0n) continue
    const units = takeableUnits(o)
    const assets = o.cappedByAssets
      ? o.remaining
      : buy
        ? (units * o.price) / WAD
        : (units * o.price + WAD - 1n) / WAD
    if (units === 0n) continue
    const level = levels.get(o.tick) ?? { price: o.price, units: 0n, assets: 0n, count: 0 }
    level.units += units
    level.assets += assets
    level.count += 1
    levels.set(o.tick, level)
  }
  return [...levels.entries()]
    .sort(([a], [b]) => (buy ? b - a : a - b))
    .map(([tick, l]) => ({
      tick,
      price: l.price.toString(),
      units: l.units.toString(),
      assets: l.assets.toString(),
      count: l.count,
    }))
}

function bookJson(m: MidnightSourceMarket) {
  const { market } = m
  return {
    market_id: m.id,
    chain_id: Number(market.chainId),
    midnight: market.midnight,
    loan_token: market.loanToken,
    collaterals: market.collateralParams.map((c) => ({
      token: c.token,
      lltv: c.lltv.toString(),
      liquidation_cursor: c.liquidationCursor.toString(),
      oracle: c.oracle,
    })),
    maturity: Number(market.maturity),
    rcf_threshold: market.rcfThreshold.toString(),
    enter_gate: market.enterGate,
    liquidator_gate: market.liquidatorGate,
    asks: priceLevels(m.offers, false),
    bids: priceLevels(m.offers, true),
  }
}

/** An offer as the API inlines it (snake_case; uints as decimal strings, times and ticks as numbers). */
function offerJson(o: MidnightOffer) {
  const { market } = o
  return {
    market: {
      chain_id: Number(market.chainId),
      midnight: market.midnight,
      loan_token: market.loanToken,
      collaterals: market.collateralParams.map((c) => ({
        token: c.token,
        lltv: c.lltv.toString(),
        liquidation_cursor: c.liquidationCursor.toString(),
        oracle: c.oracle,
      })),
      maturity: Number(market.maturity),
      rcf_threshold: market.rcfThreshold.toString(),
      enter_gate: market.enterGate,
      liquidator_gate: market.liquidatorGate,
    },
    buy: o.buy,
    maker: o.maker,
    start: Number(o.start),
    expiry: Number(o.expiry),
    tick: Number(o.tick),
    group: o.group,
    callback: o.callback,
    callback_data: o.callbackData,
    receiver_if_maker_is_seller: o.receiverIfMakerIsSeller,
    ratifier: o.ratifier,
    reduce_only: o.reduceOnly,
    max_units: o.maxUnits.toString(),
    max_assets: o.maxAssets.toString(),
    continuous_fee_cap: o.continuousFeeCap.toString(),
  }
}

class BadRequest extends Error {}

function list(
  raw: string | undefined,
  parse: (item: string) => string,
  name: string,
): Set<string> | undefined {
  if (raw === undefined || raw === '') return undefined
  return new Set(
    raw.split(',').map((item) => {
      const value = parse(item.trim())
      if (value === '') throw new BadRequest(`invalid ${name}: ${item}`)
      return value
    }),
  )
}
const asAddress = (s: string) => (isAddress(s, { strict: false }) ? getAddress(s as Address) : '')
const asInteger = (s: string) => (/^[0-9]{1,20}$/.test(s) ? String(Number(s)) : '')
const asId = (s: string) => (/^0x[0-9a-fA-F]{64}$/.test(s) ? s.toLowerCase() : '')

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0
  const match = /^o([0-9]{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (match === null) throw new BadRequest('invalid cursor')
  return Number(match[1])
}
const encodeCursor = (offset: number) => Buffer.from(`o${offset}`, 'utf8').toString('base64url')

export function createMorphoApiApp(options: MorphoApiAppOptions): Hono {
  const app = new Hono()
  app.notFound((c) => c.json({ error: { code: 'not_found', message: 'Route not found' } }, 404))
  app.onError((err, c) =>
    err instanceof BadRequest
      ? c.json({ error: { code: 'bad_request', message: err.message } }, 400)
      : c.json({ error: { code: 'internal_error', message: 'Internal error' } }, 500),
  )

  app.get('/v0/midnight/books', async (c) => {
    const q = (name: string) => c.req.query(name)
    const chainIds = list(q('chain_ids'), asInteger, 'chain_ids')
    const loanTokens = list(q('loan_tokens'), asAddress, 'loan_tokens')
    const collateralTokens = list(q('collateral_tokens'), asAddress, 'collateral_tokens')
    const maturities = list(q('maturities'), asInteger, 'maturities')
    const ids = list(q('ids'), asId, 'ids')
    const sort = q('sort') ?? 'maturity'
    if (sort !== 'maturity' && sort !== '-maturity') throw new BadRequest(`unsupported sort: ${sort}`)
    const limitRaw = q('limit')
    const limit = limitRaw === undefined ? DEFAULT_LIMIT : Number(limitRaw)
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      throw new BadRequest(`limit must be an integer in 1..${MAX_LIMIT}`)
    const offset = decodeCursor(q('cursor'))

    const nowSec = Math.floor(options.clock.now() / 1000)
    const selected = (await options.books.markets())
      .filter(({ id, market }) => {
        if (market.maturity <= BigInt(nowSec)) return false
        if (chainIds && !chainIds.has(market.chainId.toString())) return false
        if (loanTokens && !loanTokens.has(getAddress(market.loanToken))) return false
        if (
          collateralTokens &&
          !market.collateralParams.some((p) => collateralTokens.has(getAddress(p.token)))
        )
          return false
        if (maturities && !maturities.has(market.maturity.toString())) return false
        return !ids || ids.has(id.toLowerCase())
      })
      .sort((a, b) => {
        const byMaturity = Number(a.market.maturity - b.market.maturity) * (sort === 'maturity' ? 1 : -1)
        return byMaturity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
      })
    const page = selected.slice(offset, offset + limit)
    const next = offset + limit < selected.length ? encodeCursor(offset + limit) : null
    return c.json({ cursor: next, data: page.map(bookJson) })
  })

  // One side's executable offers with what a taker needs to `take` them (SDK fetchBookTakeableOffers):
  // `{data:[{market_id, units, offer, ratifier_data}]}`, best price first (asks lowest, bids highest),
  // unpaginated. Any market the chain holds is served, matured or not (a matured market's asks are gone).
  app.get('/v0/midnight/books/:id/:side/takeable-offers', async (c) => {
    const id = asId(c.req.param('id'))
    const side = c.req.param('side')
    if (id === '') throw new BadRequest('invalid market id')
    if (side !== 'asks' && side !== 'bids') throw new BadRequest(`unknown side: ${side}`)
    const buy = side === 'bids'
    const found = (await options.books.markets()).find((m) => m.id.toLowerCase() === id)
    if (found === undefined) return c.json({ error: { code: 'not_found', message: 'Book not found' } }, 404)
    const data = found.offers
      .flatMap((o) => {
        const units = takeableUnits(o)
        if (o.buy !== buy || units === 0n || o.offer === undefined || o.ratifierData === undefined) return []
        return [{ price: o.price, units, offer: o.offer, ratifierData: o.ratifierData }]
      })
      .sort((a, b) => (a.price === b.price ? 0 : a.price > b.price === buy ? -1 : 1))
      .map((o) => ({
        market_id: id,
        units: o.units.toString(),
        offer: offerJson(o.offer),
        ratifier_data: o.ratifierData,
      }))
    return c.json({ data })
  })

  return app
}
