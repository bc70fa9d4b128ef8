import { type Address, getAddress, type PublicClient } from 'viem'
import { z } from 'zod'
import { address, atomicAmount, positiveAtomicAmount, tokenOrNative } from '../../chain/fields.js'
import { ETH_DECIMALS } from '../../chain/units.js'
import { AppError, InvalidInputError } from '../../errors.js'
import type { MarketData } from '../marketData.js'
import { fromAtomic, significant } from '../numbers.js'
import { slippageBpsQuery } from '../queryFields.js'
import { usdOrNull } from '../readFields.js'
import { onchainSwapSource } from './onchainSwapSource.js'

/** Neither source can fill the pair at this size: nothing to quote, nothing charged. */
export class NoLiquidityError extends AppError {
  override readonly name = 'NoLiquidityError'
  constructor(fromToken: Address, toToken: Address) {
    super(
      409,
      'no_liquidity',
      `No liquidity for ${fromToken} → ${toToken} at this amount. Check the token addresses, or try a smaller fromAmount. Nothing was charged.`,
      undefined,
      { fromToken, toToken },
    )
  }
}

/** The query the read takes (the route's query schema). */
export const swapPriceQuery = z.object({
  fromToken: tokenOrNative,
  toToken: tokenOrNative,
  fromAmount: positiveAtomicAmount,
  taker: address.describe('The wallet that would swap (0x checks its balance and allowance)'),
  slippageBps: slippageBpsQuery(10_000),
})

export type SwapPriceQuery = z.output<typeof swapPriceQuery>

/** What the read answers (the route's output schema). */
export const swapPriceOutput = z.object({
  fromToken: address,
  toToken: address,
  fromAmount: atomicAmount,
  expectedOut: atomicAmount.describe('Atomic units of toToken the swap is expected to deliver'),
  minOut: atomicAmount.describe('Least output after slippageBps: the swap should revert below it'),
  slippageBps: z.number().int(),
  quotedBy: z.enum(['0x', 'onchain']).describe('0x Swap API v2, or the DEX contracts read directly'),
  blockNumber: atomicAmount
    .nullable()
    .describe('Block the liquidity (for a wrap, the base fee) was read at; null when nothing was read'),
  fees: z.object({
    gasEstimate: atomicAmount
      .nullable()
      .describe('Gas units of the swap transaction; see the description for what each source counts'),
    networkFeeWei: atomicAmount.nullable().describe('Gas cost in wei at the base fee (L1 data fee excluded)'),
    gasUsd: usdOrNull,
    poolFeeBps: z.number().nullable().describe('The pool’s own fee in basis points, already in expectedOut'),
    aggregatorFee: z
      .object({ amount: atomicAmount, token: address })
      .nullable()
      .describe('0x’s fee, already in expectedOut; null onchain'),
  }),
  route: z.array(
    z.object({
      source: z.string().describe('Liquidity source, e.g. Uniswap_V3, Aerodrome_V2, WETH (wrap)'),
      from: address,
      to: address,
      proportionBps: z.number().int().describe('Share of fromAmount this leg fills, in basis points'),
    }),
  ),
})

export type SwapPrice = z.output<typeof swapPriceOutput>

/**
 * An indicative swap price that reserves nothing: the 0x Swap API v2 (allowance-holder `price`) when an
 * API key is configured, else the best single-hop pool read from the chain (Uniswap v3 QuoterV2 over the
 * fee tiers, Aerodrome's router). `minOut` is the source's own minimum after `slippageBps` (the onchain
 * source: floor(expectedOut × (10000 − slippageBps) / 10000)). The fees are the swap transaction's gas
 * units, their cost at the base fee, and `gasUsd`, that cost at the exchange's ETH-USD price; each null when
 * a part of it is not available.
 */
export async function getSwapPrice(
  chain: PublicClient,
  market: MarketData,
  q: SwapPriceQuery,
): Promise<SwapPrice> {
  const fromToken = getAddress(q.fromToken)
  const toToken = getAddress(q.toToken)
  if (fromToken === toToken) {
    throw new InvalidInputError(
      'toToken',
      'query field "toToken" must differ from fromToken: there is nothing to swap.',
    )
  }
  const source = market.zeroEx ?? onchainSwapSource(chain)
  const quote = await source.quote({
    sellToken: fromToken,
    buyToken: toToken,
    sellAmount: q.fromAmount,
    taker: getAddress(q.taker),
    slippageBps: q.slippageBps,
  })
  if (quote === null) throw new NoLiquidityError(fromToken, toToken)
  return {
    fromToken,
    toToken,
    fromAmount: q.fromAmount.toString(),
    expectedOut: quote.buyAmount.toString(),
    minOut: quote.minBuyAmount.toString(),
    slippageBps: q.slippageBps,
    quotedBy: quote.source,
    blockNumber: quote.blockNumber === null ? null : quote.blockNumber.toString(),
    fees: {
      gasEstimate: quote.gasEstimate === null ? null : quote.gasEstimate.toString(),
      networkFeeWei: quote.networkFeeWei === null ? null : quote.networkFeeWei.toString(),
      gasUsd: quote.networkFeeWei === null ? null : await gasUsd(market, quote.networkFeeWei),
      poolFeeBps: quote.poolFeeBps,
      aggregatorFee:
        quote.aggregatorFee === null
          ? null
          : { amount: quote.aggregatorFee.amount.toString(), token: quote.aggregatorFee.token },
    },
    route: quote.route,
  }
}

/** The fee in USD at the exchange's ETH-USD price; null (not a failed call) when that price is unavailable. */
async function gasUsd(market: MarketData, wei: bigint): Promise<number | null> {
  const eth = await market.coinbase.ticker('ETH-USD').catch(() => null)
  if (eth === null || !(eth.price > 0)) return null
  return significant(fromAtomic(wei, ETH_DECIMALS) * eth.price)
}
