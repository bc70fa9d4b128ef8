import type { Address } from 'viem'
import { BASE_ADDRESSES } from './addresses.js'

/** CAIP-2 id of Base mainnet. The devnet runs with the same chain id so every address and signature matches. */
export const NETWORK = 'eip155:8453' as const
export const CHAIN_ID = 8453

/** The only x402 settlement asset: native USDC on Base (the address book's entry). */
export const USDC: Address = BASE_ADDRESSES.USDC
export const USDC_EIP712 = { name: 'USD Coin', version: '2' } as const
