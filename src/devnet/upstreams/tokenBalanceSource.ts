import type { Address } from 'viem'

/**
 * What the block-explorer simulator needs from the chain: the devnet reads balances with viem
 * (multicall over the tokens it deployed and every token an ERC-20 Transfer log sent to the address);
 * the explorer simulator only formats them.
 */
export interface TokenBalanceSource {
  /** Native (ETH) balance in wei. */
  nativeBalance(address: Address): Promise<bigint>
  /** Every ERC-20 the address holds a non-zero balance of. */
  tokenBalances(address: Address): Promise<readonly TokenBalance[]>
}

export interface TokenBalance {
  token: {
    address: Address
    name: string
    symbol: string
    decimals: number
    totalSupply?: bigint
  }
  /** Raw balance in the token's smallest unit. */
  value: bigint
  /** USD price per whole token when the source knows one; the explorer shows null otherwise (never 0). */
  exchangeRateUsd?: number | null
}
