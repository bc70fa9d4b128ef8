import { type Address, getAddress, isAddress } from 'viem'
import { z } from 'zod'
import { CHAIN_ID } from '../../chain/network.js'
import type { SwapQuote, SwapQuoteRequest, SwapQuoteSource } from '../swapQuoteSource.js'
import { createTtlCache } from '../ttlCache.js'
import { type FetchJson, UpstreamError } from './fetchJson.js'

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
    route: z.object({
      fills: z.array(
        z.object({
          from: addressString,
          to: addressString,
          source: z.string(),
          proportionBps: z.coerce.number().int().min(0).max(10_000),
        }),
      ),
    }),
  }),
])
type ZeroExPrice = z.infer<typeof priceSchema>

/** The 0x Swap API v2 as a swap quote source (the AllowanceHolder flow). */
export type ZeroEx = SwapQuoteSource

/**
 * 0x Swap API v2 `allowance-holder/price` on Base (chainId 8453), with the `0x-api-key` and
 * `0x-version: v2` headers 0x requires. Cached ZEROX_PRICE_TTL_MS per (sell, buy, amount, taker,
 * slippage). `liquidityAvailable: false` is no quote (null); a document that does not answer the
 * question asked (another pair or amount) is a 502.
 */
export function createZeroEx(baseUrl: string, apiKey: string, fetchJson: FetchJson): ZeroEx {
  const headers = { '0x-api-key': apiKey, '0x-version': 'v2' }
  const cache = createTtlCache<ZeroExPrice>(ZEROX_PRICE_TTL_MS)
  const price = async (req: SwapQuoteRequest): Promise<ZeroExPrice> => {
    const query = new URLSearchParams({
      chainId: String(CHAIN_ID),
      sellToken: req.sellToken,
      buyToken: req.buyToken,
      sellAmount: req.sellAmount.toString(),
      taker: req.taker,
      slippageBps: String(req.slippageBps),
    })
    const raw = await fetchJson(NAME, `${baseUrl}/swap/allowance-holder/price?${query}`, headers)
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
      if (
        p.sellAmount !== req.sellAmount ||
        !sameAddress(p.sellToken, req.sellToken) ||
        !sameAddress(p.buyToken, req.buyToken)
      ) {
        throw new UpstreamError(NAME, 'the price answers a different pair or amount')
      }
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
        route: p.route.fills.map((f) => ({
          source: f.source,
          from: f.from,
          to: f.to,
          proportionBps: f.proportionBps,
        })),
      }
    },
  }
}

function sameAddress(a: Address, b: Address): boolean {
  return a.toLowerCase() === b.toLowerCase()
}
