import type { Address, Hex } from 'viem'

/** One venue able to fill the whole sell amount in a single hop (ERC-20 addresses: WETH for ETH). */
export interface PoolFill {
  venue: 'Uniswap_V3' | 'Aerodrome_V2'
  sellToken: Address
  buyToken: Address
  amountOut: bigint
  /** Uniswap v3 fee tier (hundredths of a bip); Aerodrome: the route's `stable` flag instead. */
  uniswapFee?: number
  aerodromeStable?: boolean
}

/**
 * What the 0x simulator needs from the chain: the devnet reads its pools (QuoterV2, the Aerodrome router)
 * and the taker's state; the simulator only routes, encodes and formats, so every price is a real pool's.
 */
export interface SwapLiquiditySource {
  /** The best single-hop fill, or null when no pool can fill it. */
  bestFill(sellToken: Address, buyToken: Address, sellAmount: bigint): Promise<PoolFill | null>
  block(): Promise<{ number: bigint; timestamp: bigint }>
  gasPrice(): Promise<bigint>
  symbol(token: Address): Promise<string>
  /** Balance of `token` (an ERC-20) held by `owner`, and the allowance it gives `spender`. */
  erc20State(
    token: Address,
    owner: Address,
    spender: Address,
  ): Promise<{ balance: bigint; allowance: bigint }>
  nativeBalance(owner: Address): Promise<bigint>
  /** Gas for this transaction if it would succeed now, else null. */
  estimateGas(tx: { from: Address; to: Address; data: Hex; value: bigint }): Promise<bigint | null>
}

/** A world without pools: every pair answers `liquidityAvailable: false`. */
export const NO_SWAP_LIQUIDITY: SwapLiquiditySource = {
  bestFill: async () => null,
  block: async () => ({ number: 0n, timestamp: BigInt(Math.floor(Date.now() / 1000)) }),
  gasPrice: async () => 0n,
  symbol: async () => '',
  erc20State: async () => ({ balance: 0n, allowance: 0n }),
  nativeBalance: async () => 0n,
  estimateGas: async () => null,
}
