import { type Address, getAddress, isAddress, isAddressEqual } from 'viem'
import { z } from 'zod'
import { UpstreamError } from '../../errors.js'
import { type FetchJson, UpstreamNotFound } from './fetchJson.js'
import { wireNumber } from './wireNumbers.js'

const NAME = 'gTrade history'
const BASE_CHAIN_ID = 8453
/**
 * No gTrade figure (price, collateral, PnL in USD, block, index) comes near 1e15; a record beyond it is
 * garbage, and summed over a history (stats) it would overflow to Infinity, which JSON sends as null.
 */
const MAX_MAGNITUDE = 1e15
const num = wireNumber.refine((n) => Math.abs(n) <= MAX_MAGNITUDE, { error: 'must be within 1e15' })

/**
 * The SDK's `TradeHistoryRecord` (@gainsnetwork/sdk 1.8.7, vendored in test/fixtures/upstreams/gtrade):
 * `long` and `isCounterTrade` are 0/1 numbers there; a boolean is read too. Numbers may arrive as strings.
 */
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1)
const recordSchema = z.object({
  action: z.string(),
  address: z.string(),
  block: num,
  long: flag,
  leverage: num,
  pair: z.string(),
  pnl_net: num.nullable().optional(),
  price: num,
  size: num,
  tx: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  tradeIndex: num,
  date: z.string().refine((d) => Number.isFinite(Date.parse(d)), { error: 'must be a date' }),
  collateralIndex: num.optional(),
  collateralPriceUsd: num.nullable().optional(),
  marketPrice: num.nullable().optional(),
})
const pageSchema = z.object({
  data: z.array(recordSchema),
  pagination: z.object({ hasMore: z.boolean(), nextCursor: z.union([z.string(), z.number()]).nullable() }),
})

/** One trade event of the history backend, in human units. */
export interface GtradeHistoryRecord {
  /** TradeOpenedMarket|Limit|Stop, TradeClosedMarket|TP|SL|LIQ, TradeLeverageUpdate, TradePositionSize… */
  action: string
  block: number
  long: boolean
  leverage: number
  /** "BTC/USD". */
  pair: string
  /** Realized net PnL in collateral (human); 0 for opens; null when the backend sends none. */
  pnlNet: number | null
  /** Execution price. */
  price: number
  /** Position collateral (human). */
  size: number
  tx: `0x${string}`
  tradeIndex: number
  /** Unix seconds. */
  time: number
  collateralIndex: number | null
}

export interface GtradeHistoryPage {
  /** Newest first, as the backend pages them. */
  records: GtradeHistoryRecord[]
  /** null at the end. */
  nextCursor: string | null
}

export interface GtradeHistory {
  /** One page of `owner`'s Base trade events, newest first; live, never cached. */
  page(owner: Address, cursor: string | undefined, limit: number): Promise<GtradeHistoryPage>
}

/**
 * gTrade history adapter: `GET {baseUrl}/api/personal-trading-history/<checksummed address>?chainId=8453
 * &limit=<1..100>[&cursor=]` (backend-global, protocols.md §1). Not cached: a close must show at once. A 404
 * is an empty history; a payload of another shape is a 502 UpstreamError.
 */
export function createGtradeHistory(baseUrl: string, fetchJson: FetchJson): GtradeHistory {
  return {
    async page(owner, cursor, limit) {
      const query = new URLSearchParams({ chainId: String(BASE_CHAIN_ID), limit: String(limit) })
      if (cursor !== undefined) query.set('cursor', cursor)
      let raw: unknown
      try {
        raw = await fetchJson(NAME, `${baseUrl}/api/personal-trading-history/${getAddress(owner)}?${query}`)
      } catch (err) {
        if (err instanceof UpstreamNotFound) return { records: [], nextCursor: null }
        throw err
      }
      const parsed = pageSchema.safeParse(raw)
      if (!parsed.success) throw new UpstreamError(NAME, 'unexpected personal-trading-history shape')
      const { data, pagination } = parsed.data
      // Records of another wallet in this wallet's history would be credited to it (stats, PnL): the
      // page is not trusted at all then.
      if (data.some((r) => !isAddress(r.address, { strict: false }) || !isAddressEqual(r.address, owner)))
        throw new UpstreamError(NAME, 'personal-trading-history returned another address’s records')
      return {
        records: data.map((r) => ({
          action: r.action,
          block: r.block,
          long: r.long,
          leverage: r.leverage,
          pair: r.pair,
          pnlNet: r.pnl_net ?? null,
          price: r.price,
          size: r.size,
          tx: r.tx as `0x${string}`,
          tradeIndex: r.tradeIndex,
          time: Math.floor(Date.parse(r.date) / 1000),
          collateralIndex: r.collateralIndex ?? null,
        })),
        nextCursor:
          pagination.hasMore && pagination.nextCursor !== null && pagination.nextCursor !== ''
            ? String(pagination.nextCursor)
            : null,
      }
    },
  }
}
