import { type Address, erc20Abi, type PublicClient } from 'viem'
import type { TokenBalance, TokenBalanceSource } from './upstreams/tokenBalanceSource.js'

export interface ListedToken {
  address: Address
  name: string
  symbol: string
  decimals: number
  /** USD per whole token from the simulator, or null when the world has no reliable price for it. */
  usd: () => number | null
}

/**
 * The explorer simulator's data, read from the devnet chain: one multicall of balanceOf over every token
 * the world deployed, plus the native balance. Zero balances are left out, as explorers do.
 */
export function chainTokenBalances(client: PublicClient, tokens: readonly ListedToken[]): TokenBalanceSource {
  return {
    nativeBalance: (address) => client.getBalance({ address }),
    async tokenBalances(address) {
      const results = await client.multicall({
        contracts: tokens.map((t) => ({
          address: t.address,
          abi: erc20Abi,
          functionName: 'balanceOf' as const,
          args: [address] as const,
        })),
        allowFailure: true,
      })
      const held: TokenBalance[] = []
      results.forEach((r, i) => {
        const token = tokens[i]
        if (!token || r.status !== 'success' || r.result === 0n) return
        const { usd, ...meta } = token
        held.push({ token: meta, value: r.result, exchangeRateUsd: usd() })
      })
      return held
    },
  }
}
