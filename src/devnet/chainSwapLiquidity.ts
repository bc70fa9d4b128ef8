import { type Address, erc20Abi, type PublicClient } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { aerodromeRouterAbi, quoterV2Abi, UNISWAP_V3_FEE_TIERS } from '../chain/swapVenueAbis.js'
import type { PoolFill, SwapLiquiditySource } from './upstreams/swapLiquiditySource.js'

/**
 * The 0x simulator's liquidity: the devnet's own pools, read live. Each Uniswap v3 tier through
 * QuoterV2 and the Aerodrome router's getAmountsOut (volatile and stable), best output wins (lower
 * Uniswap tier first on a tie).
 */
export function chainSwapLiquidity(client: PublicClient): SwapLiquiditySource {
  const symbols = new Map<string, Promise<string>>()
  return {
    async bestFill(sellToken, buyToken, sellAmount) {
      const uniswap = UNISWAP_V3_FEE_TIERS.map(async (fee): Promise<PoolFill | null> => {
        try {
          const [amountOut] = await client.readContract({
            address: BASE_ADDRESSES.QuoterV2,
            abi: quoterV2Abi,
            functionName: 'quoteExactInputSingle',
            args: [
              { tokenIn: sellToken, tokenOut: buyToken, amountIn: sellAmount, fee, sqrtPriceLimitX96: 0n },
            ],
          })
          return { venue: 'Uniswap_V3', sellToken, buyToken, amountOut, uniswapFee: fee }
        } catch {
          return null // no pool at this tier, or it cannot fill the amount
        }
      })
      const aerodrome = [false, true].map(async (stable): Promise<PoolFill | null> => {
        try {
          const amounts = await client.readContract({
            address: BASE_ADDRESSES.AerodromeRouter,
            abi: aerodromeRouterAbi,
            functionName: 'getAmountsOut',
            args: [
              sellAmount,
              [{ from: sellToken, to: buyToken, stable, factory: BASE_ADDRESSES.AerodromePoolFactory }],
            ],
          })
          const amountOut = amounts.at(-1) ?? 0n
          return { venue: 'Aerodrome_V2', sellToken, buyToken, amountOut, aerodromeStable: stable }
        } catch {
          return null // the devnet router has no stable pools
        }
      })
      let best: PoolFill | null = null
      for (const fill of await Promise.all([...uniswap, ...aerodrome])) {
        if (fill !== null && fill.amountOut > 0n && (best === null || fill.amountOut > best.amountOut))
          best = fill
      }
      return best
    },
    async block() {
      const b = await client.getBlock({ blockTag: 'latest' })
      return { number: b.number, timestamp: b.timestamp }
    },
    gasPrice: () => client.getGasPrice(),
    symbol(token) {
      const key = token.toLowerCase()
      let s = symbols.get(key)
      if (s === undefined) {
        s = client.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' }).catch(() => '')
        symbols.set(key, s)
      }
      return s
    },
    async erc20State(token: Address, owner: Address, spender: Address) {
      const [balance, allowance] = await Promise.all([
        client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }),
        client.readContract({
          address: token,
          abi: erc20Abi,
          functionName: 'allowance',
          args: [owner, spender],
        }),
      ])
      return { balance, allowance }
    },
    nativeBalance: (owner) => client.getBalance({ address: owner }),
    async estimateGas(tx) {
      try {
        return await client.estimateGas({ account: tx.from, to: tx.to, data: tx.data, value: tx.value })
      } catch {
        return null
      }
    },
  }
}
