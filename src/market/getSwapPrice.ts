import { type Address, getAddress, type PublicClient } from 'viem'
import { AppError, InvalidInputError } from '../errors.js'
import type { MarketData } from './marketData.js'
import { fromAtomic, significant } from './numbers.js'
import { onchainSwapSource } from './onchainSwapSource.js'
import type { SwapFill } from './swapQuoteSource.js'

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

export interface SwapPriceQuery {
  fromToken: Address
  toToken: Address
  /** Atomic units of fromToken, positive (the route's schema checks it). */
  fromAmount: bigint
  taker: Address
  slippageBps: number
}

export interface SwapPrice {
  fromToken: Address
  toToken: Address
  fromAmount: string
  expectedOut: string
  minOut: string
  slippageBps: number
  quotedBy: '0x' | 'onchain'
  blockNumber: string | null
  fees: {
    gasEstimate: string | null
    networkFeeWei: string | null
    gasUsd: number | null
    poolFeeBps: number | null
    aggregatorFee: { amount: string; token: Address } | null
  }
  route: SwapFill[]
}

const ETH_DECIMALS = 18

/**
 * An indicative swap price that reserves nothing: the 0x Swap API v2 (allowance-holder `price`) when an
 * API key is configured, else the best single-hop pool read from the chain (Uniswap v3 QuoterV2 over the
 * fee tiers, Aerodrome's router). `minOut` is the source's own minimum after `slippageBps` (the onchain
 * source: floor(expectedOut × (10000 − slippageBps) / 10000)). `gasUsd` is the network fee at the
 * exchange's ETH-USD price; null when the fee or that price is not available.
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
