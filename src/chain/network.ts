import type { Address } from 'viem'

/** CAIP-2 id of Base mainnet. The devnet runs with the same chain id so every address and signature matches. */
export const NETWORK = 'eip155:8453' as const
export const CHAIN_ID = 8453

/** Native USDC on Base: the only x402 settlement asset (EIP-3009, EIP-712 domain "USD Coin" / "2"). */
export const USDC: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
export const USDC_DECIMALS = 6
export const USDC_EIP712 = { name: 'USD Coin', version: '2' } as const

/** Sentinel that token fields accept for native ETH. */
export const NATIVE_SENTINEL: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
/** Burning UTIL means sending it here. */
export const DEAD_ADDRESS: Address = '0x000000000000000000000000000000000000dEaD'

/** gTrade's GNSMultiCollatDiamond on Base: every perp call and read goes here. */
export const GTRADE_DIAMOND: Address = '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb'
