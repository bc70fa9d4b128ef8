import { type Address, getAddress, type Hex } from 'viem'
import { z } from 'zod'
import type { MidnightOffer } from '../../chain/midnight.js'
import { CHAIN_ID } from '../../chain/network.js'
import { WAD } from '../../chain/units.js'
import { UpstreamError } from '../../errors.js'
import { createTtlCache } from '../../ttlCache.js'
import { type FetchJson, UpstreamNotFound } from './fetchJson.js'
import { wireNumber } from './wireNumbers.js'

/** The upstream's name in a 502 (`upstream_unavailable`, details.upstream). */
export const MIDNIGHT_API = 'Morpho Midnight'
const NAME = MIDNIGHT_API

/** Decimal uint as the API sends it (strings; plain JSON integers are accepted where they are exact). */
const UINT256_MAX = 2n ** 256n - 1n
const uint = z
  .union([z.string().regex(/^[0-9]{1,78}$/), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)])
  .transform((v) => BigInt(v))
  // 78 digits reach past 2^256: such a value cannot be ABI-encoded (the id check would throw a 500).
  .refine((v) => v <= UINT256_MAX, { error: 'must fit in uint256' })
/** Midnight's Offer caps are uint128: a larger cap cannot be encoded into `take` (it would be a 500). */
const uint128 = uint.refine((v) => v < 2n ** 128n, { error: 'must fit in uint128' })
const wireAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .transform((a) => getAddress(a))
const wireId = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/)
  .transform((id) => id.toLowerCase() as Hex)

const levelSchema = z.object({
  tick: z.number().int().nonnegative(),
  /** WAD, 0 < price ≤ 1e18: loan-token assets paid now per unit that pays 1 loan token at maturity. */
  price: uint.refine((p) => p > 0n && p <= WAD, { error: 'price must be a WAD in (0, 1e18]' }),
  units: uint,
  assets: uint,
  count: z.number().int().nonnegative(),
})

const bookSchema = z.object({
  market_id: wireId,
  chain_id: wireNumber.pipe(z.number().int()),
  midnight: wireAddress,
  loan_token: wireAddress,
  collaterals: z
    .array(z.object({ token: wireAddress, lltv: uint, liquidation_cursor: uint, oracle: wireAddress }))
    .min(1),
  maturity: uint
    .refine((v) => v <= BigInt(Number.MAX_SAFE_INTEGER), { error: 'maturity must be a unix time' })
    .transform(Number),
  rcf_threshold: uint,
  enter_gate: wireAddress,
  liquidator_gate: wireAddress,
  asks: z.array(levelSchema),
  bids: z.array(levelSchema),
})

const wireBytes32 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/)
  .transform((h) => h.toLowerCase() as Hex)
const wireBytes = z
  .string()
  .regex(/^0x([0-9a-fA-F]{2})*$/)
  .transform((h) => h.toLowerCase() as Hex)
const wireTime = uint

/**
 * A takeable offer (SDK `ApiTakeableOfferResponse`, @morpho-org/midnight-sdk 1.6.0, vendored in
 * test/fixtures/upstreams/morpho-midnight): the offer inline, with what is left to take and the ratifier
 * data `take` needs. Every field of the offer is required, as the SDK declares it: the offer is signed
 * as a whole, so a field filled in here (a fee cap of 0) would build a `take` of another offer.
 */
const takeableSchema = z.object({
  market_id: wireId,
  units: uint,
  offer: z.object({
    market: z.object({
      chain_id: wireNumber.pipe(z.number().int()),
      midnight: wireAddress,
      loan_token: wireAddress,
      collaterals: z
        .array(z.object({ token: wireAddress, lltv: uint, liquidation_cursor: uint, oracle: wireAddress }))
        .min(1),
      maturity: wireTime,
      rcf_threshold: uint,
      enter_gate: wireAddress,
      liquidator_gate: wireAddress,
    }),
    buy: z.boolean(),
    maker: wireAddress,
    start: wireTime,
    expiry: wireTime,
    tick: wireTime,
    group: wireBytes32,
    callback: wireAddress,
    callback_data: wireBytes,
    receiver_if_maker_is_seller: wireAddress,
    ratifier: wireAddress,
    reduce_only: z.boolean(),
    max_units: uint128,
    max_assets: uint128,
    continuous_fee_cap: uint,
  }),
  ratifier_data: wireBytes,
})

const pageSchema = z.object({
  cursor: z.string().min(1).nullable().optional(),
  data: z.array(bookSchema),
})

/** One price level of a book side: every offer at one tick, summed. */
export interface MidnightLevel {
  tick: number
  /** WAD unit price (loan-token assets now per unit paying 1 loan token at maturity). */
  price: bigint
  /** Executable units at this tick (atomic loan-token units at maturity). */
  units: bigint
  /** Maker-side loan-token assets at this tick (atomic). */
  assets: bigint
  /** Offers grouped into this level. */
  count: number
}

export interface MidnightCollateral {
  token: Address
  /** WAD. */
  lltv: bigint
  /** WAD. */
  liquidationCursor: bigint
  oracle: Address
}

/** One Midnight book as the API lists it: the market's immutable parameters and both sides. */
export interface MidnightBook {
  /** Lower-case 0x + 64 hex. */
  marketId: Hex
  chainId: number
  midnight: Address
  loanToken: Address
  collaterals: MidnightCollateral[]
  /** Unix seconds. */
  maturity: number
  rcfThreshold: bigint
  enterGate: Address
  liquidatorGate: Address
  /** Maker sells units (borrower-makers): what a lender takes. As sent (the API sorts best first). */
  asks: MidnightLevel[]
  /** Maker buys units (lender-makers): what a borrower takes. */
  bids: MidnightLevel[]
}

/** One executable offer of a book side, ready for `take(offer, ratifierData, units, …)`. */
export interface MidnightTakeableOffer {
  marketId: Hex
  /** Units still takeable (atomic loan token at maturity). */
  units: bigint
  offer: MidnightOffer
  ratifierData: Hex
}

export interface MorphoMidnight {
  /** Every Base book from `GET /v0/midnight/books`, all cursor pages followed (cached 10 s). */
  books(): Promise<MidnightBook[]>
  /**
   * One side's executable offers, `GET /v0/midnight/books/{id}/{asks|bids}/takeable-offers`, in the API's
   * order (never cached: a builder takes them). An unknown book is an empty list.
   */
  takeableOffers(marketId: Hex, side: 'asks' | 'bids'): Promise<MidnightTakeableOffer[]>
}

export interface MorphoMidnightOptions {
  /** Books per page (`limit`); default 100. */
  pageSize?: number
  /** A cursor chain longer than this is an upstream fault, not an endless loop; default 50. */
  maxPages?: number
  /** Cache clock (ms). */
  now?: () => number
}

/**
 * Morpho's Midnight API (protocols.md §7a; api.morpho.org/v0/midnight, snake_case wire fields, `{cursor, data}`
 * pages). Every payload is zod-parsed: a bad shape, a broken cursor chain or a missing route is a 502.
 * TTL: books 10 s (offers come and go; the book is a quote, not a ledger).
 */
export function createMorphoMidnight(
  baseUrl: string,
  fetchJson: FetchJson,
  options: MorphoMidnightOptions = {},
): MorphoMidnight {
  const pageSize = options.pageSize ?? 100
  const maxPages = options.maxPages ?? 50
  const cache = createTtlCache<MidnightBook[]>(10_000, options.now)

  async function page(cursor: string | undefined) {
    const query = new URLSearchParams({
      chain_ids: String(CHAIN_ID),
      sort: 'maturity',
      limit: String(pageSize),
    })
    if (cursor !== undefined) query.set('cursor', cursor)
    let raw: unknown
    try {
      raw = await fetchJson(NAME, `${baseUrl}/v0/midnight/books?${query}`)
    } catch (err) {
      // The listing route always exists: a 404 means the upstream moved, not that there are no books.
      if (err instanceof UpstreamNotFound)
        throw new UpstreamError(NAME, 'books route not found', { cause: err })
      throw err
    }
    const parsed = pageSchema.safeParse(raw)
    if (!parsed.success) throw new UpstreamError(NAME, 'unexpected books shape', { cause: parsed.error })
    return parsed.data
  }

  async function takeableOffers(marketId: Hex, side: 'asks' | 'bids'): Promise<MidnightTakeableOffer[]> {
    let raw: unknown
    try {
      raw = await fetchJson(NAME, `${baseUrl}/v0/midnight/books/${marketId}/${side}/takeable-offers`)
    } catch (err) {
      if (err instanceof UpstreamNotFound) return []
      throw err
    }
    const parsed = z.object({ data: z.array(takeableSchema) }).safeParse(raw)
    if (!parsed.success)
      throw new UpstreamError(NAME, 'unexpected takeable-offers shape', { cause: parsed.error })
    return parsed.data.data.map(toTakeable)
  }

  return {
    takeableOffers,
    books: () =>
      cache.get('books', async () => {
        const books: MidnightBook[] = []
        const seen = new Set<string>()
        let cursor: string | undefined
        for (let n = 0; ; n++) {
          if (n === maxPages) throw new UpstreamError(NAME, `more than ${maxPages} pages of books`)
          const { cursor: next, data } = await page(cursor)
          books.push(...data.map(toBook))
          if (next === null || next === undefined) break
          if (seen.has(next)) throw new UpstreamError(NAME, 'books cursor repeats')
          seen.add(next)
          cursor = next
        }
        // A book listed on two pages (the listing moved under the cursor) is counted once.
        return [...new Map(books.map((b) => [b.marketId, b])).values()]
      }),
  }
}

function toTakeable(t: z.infer<typeof takeableSchema>): MidnightTakeableOffer {
  const o = t.offer
  const m = o.market
  return {
    marketId: t.market_id,
    units: t.units,
    ratifierData: t.ratifier_data,
    offer: {
      market: {
        chainId: BigInt(m.chain_id),
        midnight: m.midnight,
        loanToken: m.loan_token,
        collateralParams: m.collaterals.map((c) => ({
          token: c.token,
          lltv: c.lltv,
          liquidationCursor: c.liquidation_cursor,
          oracle: c.oracle,
        })),
        maturity: m.maturity,
        rcfThreshold: m.rcf_threshold,
        enterGate: m.enter_gate,
        liquidatorGate: m.liquidator_gate,
      },
      buy: o.buy,
      maker: o.maker,
      start: o.start,
      expiry: o.expiry,
      tick: o.tick,
      group: o.group,
      callback: o.callback,
      callbackData: o.callback_data,
      receiverIfMakerIsSeller: o.receiver_if_maker_is_seller,
      ratifier: o.ratifier,
      reduceOnly: o.reduce_only,
      maxUnits: o.max_units,
      maxAssets: o.max_assets,
      continuousFeeCap: o.continuous_fee_cap,
    },
  }
}

function toBook(b: z.infer<typeof bookSchema>): MidnightBook {
  return {
    marketId: b.market_id,
    chainId: b.chain_id,
    midnight: b.midnight,
    loanToken: b.loan_token,
    collaterals: b.collaterals.map((c) => ({
      token: c.token,
      lltv: c.lltv,
      liquidationCursor: c.liquidation_cursor,
      oracle: c.oracle,
    })),
    maturity: b.maturity,
    rcfThreshold: b.rcf_threshold,
    enterGate: b.enter_gate,
    liquidatorGate: b.liquidator_gate,
    asks: b.asks,
    bids: b.bids,
  }
}
