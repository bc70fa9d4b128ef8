import { type Address, getAddress, type Hex, isAddress, isHex } from 'viem'
import { z } from 'zod'
import { CHAIN_ID } from '../../chain/network.js'
import { UpstreamError } from '../../errors.js'
import { createTtlCache } from '../../ttlCache.js'
import type { SwapFill, SwapQuote, SwapQuoteRequest, SwapQuoteSource } from '../swap/swapQuoteSource.js'
import type { FetchJson } from './fetchJson.js'
import { type SendLimit, throughLimit, UNLIMITED } from './windowLimit.js'
import { wireNumber } from './wireNumbers.js'

/** 0x refuses a bad or missing key with 401; its 403 refuses a taker (sanctions screening), not our key. */
const KEY_REFUSED = [401] as const

const NAME = '0x Swap API'

/** A 0x quote is priced at one block: cache it about one Base block (2 s) per exact request. */
export const ZEROX_PRICE_TTL_MS = 2000

const uint = z
  .string()
  .regex(/^[0-9]+$/)
  .transform((s) => BigInt(s))
const addressString = z
  .string()
  .refine((s) => isAddress(s, { strict: false }))
  .transform((s) => getAddress(s))
const fee = z.object({ amount: uint, token: addressString, type: z.string() })
const fills = z.array(
  z.object({
    from: addressString,
    to: addressString,
    source: z.string(),
    proportionBps: wireNumber.pipe(z.number().int().min(0).max(10_000)),
  }),
)

/**
 * `GET /swap/allowance-holder/price` (0x Swap API v2, protocols.md §4; schemas of @0x/swap-ts-sdk). Only
 * the fields the read uses are required; the rest of the document may change without breaking it.
 */
const priceSchema = z.discriminatedUnion('liquidityAvailable', [
  z.object({ liquidityAvailable: z.literal(false), zid: z.string().optional() }),
  z.object({
    liquidityAvailable: z.literal(true),
    blockNumber: uint,
    sellToken: addressString,
    buyToken: addressString,
    sellAmount: uint,
    buyAmount: uint,
    minBuyAmount: uint,
    gas: uint.nullable(),
    gasPrice: uint,
    totalNetworkFee: uint.nullable(),
    fees: z.object({ zeroExFee: fee.nullable(), integratorFee: fee.nullable().optional() }),
    route: z.object({ fills }),
  }),
])
type ZeroExPrice = z.infer<typeof priceSchema>

/**
 * `GET /swap/allowance-holder/quote`: the price's fields plus the `transaction` to send and the taker's
 * `issues` (the spender to approve). Again only what the builder uses is required.
 */
const quoteSchema = z.discriminatedUnion('liquidityAvailable', [
  z.object({ liquidityAvailable: z.literal(false), zid: z.string().optional() }),
  z.object({
    liquidityAvailable: z.literal(true),
    zid: z.string(),
    blockNumber: uint,
    sellToken: addressString,
    buyToken: addressString,
    sellAmount: uint,
    buyAmount: uint,
    minBuyAmount: uint,
    fees: z.object({ zeroExFee: fee.nullable(), integratorFee: fee.nullable().optional() }),
    issues: z.object({
      allowance: z.object({ actual: uint, spender: addressString }).nullable(),
    }),
    route: z.object({ fills }),
    transaction: z.object({
      to: addressString,
      data: z.string().refine((s): s is Hex => isHex(s, { strict: true }) && s.length >= 10),
      value: uint,
      gas: uint.nullable(),
    }),
  }),
])

/** What the allowance-holder `quote` is asked: the price's request, plus 0x's `txOrigin`. */
export interface ZeroExQuoteRequest extends SwapQuoteRequest {
  /**
   * 0x's `txOrigin`: the externally owned account that starts the transaction, only needed when `taker`
   * is a smart contract (a smart wallet's signer).
   */
  txOrigin?: Address
}

/** A firm allowance-holder quote: the transaction 0x will settle, exactly as quoted. */
export interface ZeroExFirmQuote {
  /** 0x's id of this quote. */
  zid: string
  blockNumber: bigint
  buyAmount: bigint
  /** What the Settler enforces onchain: the transaction reverts below it. */
  minBuyAmount: bigint
  /** `issues.allowance.spender` when 0x reports the taker's allowance short, else null. */
  allowanceSpender: Address | null
  transaction: { to: Address; data: Hex; value: bigint; gas: bigint | null }
  aggregatorFee: { amount: bigint; token: Address } | null
  route: SwapFill[]
}

/**
 * The 0x Swap API v2, AllowanceHolder flow: `quote` (the SwapQuoteSource contract) is the indicative
 * `price`; `firmQuote` is the `quote` endpoint, whose transaction a builder hands to the caller.
 */
export interface ZeroEx extends SwapQuoteSource {
  firmQuote(req: ZeroExQuoteRequest): Promise<ZeroExFirmQuote | null>
}

/** The query both endpoints take (0x Swap API v2 on Base). */
function queryOf(req: ZeroExQuoteRequest): URLSearchParams {
  const query = new URLSearchParams({
    chainId: String(CHAIN_ID),
    sellToken: req.sellToken,
    buyToken: req.buyToken,
    sellAmount: req.sellAmount.toString(),
    taker: req.taker,
    slippageBps: String(req.slippageBps),
  })
  if (req.txOrigin !== undefined) query.set('txOrigin', req.txOrigin)
  return query
}

/** A document about another pair or amount than the one asked is no answer at all. */
function assertAnswers(
  what: string,
  p: { sellAmount: bigint; sellToken: Address; buyToken: Address },
  req: SwapQuoteRequest,
): void {
  if (
    p.sellAmount !== req.sellAmount ||
    !sameAddress(p.sellToken, req.sellToken) ||
    !sameAddress(p.buyToken, req.buyToken)
  ) {
    throw new UpstreamError(NAME, `the ${what} answers a different pair or amount`)
  }
}

/**
 * 0x Swap API v2 `allowance-holder/price` and `/quote` on Base (chainId 8453), with the `0x-api-key` and
 * `0x-version: v2` headers 0x requires. Prices are cached ZEROX_PRICE_TTL_MS per (sell, buy, amount,
 * taker, slippage); firm quotes never (each is a transaction 0x settles once, with its own zid).
 * `liquidityAvailable: false` is no quote (null); a document that does not answer the question asked
 * (another pair or amount) is a 502.
 */
export function createZeroEx(
  baseUrl: string,
  apiKey: string,
  fetchJson: FetchJson,
  limit: SendLimit = UNLIMITED,
): ZeroEx {
  const headers = { '0x-api-key': apiKey, '0x-version': 'v2' }
  // 0x counts fixed 1 s windows; a 429 pauses our sends for one (it names no Retry-After).
  const get = (url: string) => throughLimit(limit, 1000, () => fetchJson(NAME, url, headers, KEY_REFUSED))
  const cache = createTtlCache<ZeroExPrice>(ZEROX_PRICE_TTL_MS)
  const price = async (req: SwapQuoteRequest): Promise<ZeroExPrice> => {
    const query = queryOf(req)
    const raw = await get(`${baseUrl}/swap/allowance-holder/price?${query}`)
    const parsed = priceSchema.safeParse(raw)
    if (!parsed.success) throw new UpstreamError(NAME, 'unexpected shape at /swap/allowance-holder/price')
    return parsed.data
  }
  return {
    async quote(req): Promise<SwapQuote | null> {
      const key = [req.sellToken, req.buyToken, req.sellAmount, req.taker, req.slippageBps]
        .join(':')
        .toLowerCase()
      const p = await cache.get(key, () => price(req))
      if (!p.liquidityAvailable) return null
      assertAnswers('price', p, req)
      return {
        source: '0x',
        blockNumber: p.blockNumber,
        buyAmount: p.buyAmount,
        minBuyAmount: p.minBuyAmount,
        gasEstimate: p.gas,
        gasPriceWei: p.gasPrice,
        networkFeeWei: p.totalNetworkFee ?? (p.gas === null ? null : p.gas * p.gasPrice),
        // 0x does not report the pools' own fees.
        poolFeeBps: null,
        aggregatorFee:
          p.fees.zeroExFee === null
            ? null
            : { amount: p.fees.zeroExFee.amount, token: p.fees.zeroExFee.token },
        route: p.route.fills.map(toFill),
      }
    },
    async firmQuote(req): Promise<ZeroExFirmQuote | null> {
      const raw = await get(`${baseUrl}/swap/allowance-holder/quote?${queryOf(req)}`)
      const parsed = quoteSchema.safeParse(raw)
      if (!parsed.success) throw new UpstreamError(NAME, 'unexpected shape at /swap/allowance-holder/quote')
      const q = parsed.data
      if (!q.liquidityAvailable) return null
      assertAnswers('quote', q, req)
      return {
        zid: q.zid,
        blockNumber: q.blockNumber,
        buyAmount: q.buyAmount,
        minBuyAmount: q.minBuyAmount,
        allowanceSpender: q.issues.allowance?.spender ?? null,
        transaction: q.transaction,
        aggregatorFee:
          q.fees.zeroExFee === null
            ? null
            : { amount: q.fees.zeroExFee.amount, token: q.fees.zeroExFee.token },
        route: q.route.fills.map(toFill),
      }
    },
  }
}

function toFill(f: SwapFill): SwapFill {
  return { source: f.source, from: f.from, to: f.to, proportionBps: f.proportionBps }
}

function sameAddress(a: Address, b: Address): boolean {
  return a.toLowerCase() === b.toLowerCase()
}
