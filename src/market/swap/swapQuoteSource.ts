import type { Address } from 'viem'

/** What a swap quote is asked for. Native ETH is the 0xEeee… sentinel on either side. */
export interface SwapQuoteRequest {
  sellToken: Address
  buyToken: Address
  /** Atomic units of `sellToken`. */
  sellAmount: bigint
  taker: Address
  slippageBps: number
  /**
   * The onchain source reads the pools at this block instead of the latest (so several quotes of one
   * answer see one state); the 0x API always quotes its latest.
   */
  blockNumber?: bigint | undefined
}

/** One leg of the route, in the vocabulary of 0x's `route.fills`. */
export interface SwapFill {
  /** Liquidity source, e.g. `Uniswap_V3`, `Aerodrome_V2`, `WETH` (wrap/unwrap). */
  source: string
  from: Address
  to: Address
  /** Share of the sell amount this leg fills, in basis points. */
  proportionBps: number
}

/** A priced swap, whichever source answered. Values a source does not know are null, never 0. */
export interface SwapQuote {
  /** `0x`: the 0x Swap API; `onchain`: the DEX contracts read directly. */
  source: '0x' | 'onchain'
  /** Block the liquidity was sampled at; null when nothing onchain was read (a wrap). */
  blockNumber: bigint | null
  buyAmount: bigint
  minBuyAmount: bigint
  /** Gas units (see the route description for what each source counts). */
  gasEstimate: bigint | null
  gasPriceWei: bigint | null
  /** What the gas costs in wei, when both parts are known (0x: its `totalNetworkFee`). */
  networkFeeWei: bigint | null
  /** The liquidity pool's own fee in basis points, already taken out of `buyAmount`. */
  poolFeeBps: number | null
  /** An aggregator's fee (0x's `zeroExFee`), already taken out of `buyAmount`. */
  aggregatorFee: { amount: bigint; token: Address } | null
  route: SwapFill[]
}

/** A way to price a swap. `null`: no liquidity for that pair and size. */
export interface SwapQuoteSource {
  quote(request: SwapQuoteRequest): Promise<SwapQuote | null>
}
