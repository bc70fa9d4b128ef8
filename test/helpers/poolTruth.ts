import {
  type Account,
  type Address,
  type Chain,
  erc20Abi,
  maxUint256,
  type PublicClient,
  parseAbi,
  type Transport,
  type WalletClient,
} from 'viem'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { expectMined } from './expectMined.js'

// The venues' ABIs, written out here so the truth does not lean on the service's own definitions.
export const quoterAbi = parseAbi([
  'struct P { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }',
  'function quoteExactInputSingle(P params) returns (uint256 amountOut, uint160, uint32, uint256 gasEstimate)',
])
export const aeroAbi = parseAbi([
  'struct Route { address from; address to; bool stable; address factory; }',
  'function getAmountsOut(uint256 amountIn, Route[] routes) view returns (uint256[] amounts)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, Route[] routes, address to, uint256 deadline) returns (uint256[] amounts)',
  'function poolFor(address a, address b, bool stable, address factory) view returns (address)',
  'function getFee(address pool, bool stable) view returns (uint256)',
])

export interface PoolTruth {
  venue: 'Uniswap_V3' | 'Aerodrome_V2'
  amountOut: bigint
  /** Uniswap's fee tier (hundredths of a bp); undefined for Aerodrome. */
  fee?: number
  /** The pool's fee in bps: the tier ÷ 100, or the Aerodrome factory's getFee. */
  feeBps: number
  /** QuoterV2's estimate; undefined for Aerodrome, which gives none. */
  gasEstimate?: bigint
}

/**
 * The best single hop read straight from the venues (QuoterV2 over every tier, then the Aerodrome
 * router's volatile and stable pools unless `aerodrome` is false), at `blockNumber` or the latest; the
 * first candidate with the highest output wins. Null when nothing fills it.
 */
export async function bestPool(
  chain: PublicClient,
  sell: Address,
  buy: Address,
  amountIn: bigint,
  options: { blockNumber?: bigint; aerodrome?: boolean } = {},
): Promise<PoolTruth | null> {
  const { blockNumber, aerodrome = true } = options
  const candidates: PoolTruth[] = []
  for (const fee of [100, 500, 3000, 10_000]) {
    try {
      const { result } = await chain.simulateContract({
        address: BASE_ADDRESSES.QuoterV2,
        abi: quoterAbi,
        functionName: 'quoteExactInputSingle',
        args: [{ tokenIn: sell, tokenOut: buy, amountIn, fee, sqrtPriceLimitX96: 0n }],
        blockNumber,
      })
      if (result[0] > 0n)
        candidates.push({
          venue: 'Uniswap_V3',
          amountOut: result[0],
          fee,
          feeBps: fee / 100,
          gasEstimate: result[3],
        })
    } catch {
      // no pool at this tier
    }
  }
  const factory = BASE_ADDRESSES.AerodromePoolFactory
  for (const stable of aerodrome ? [false, true] : []) {
    try {
      const read = { address: BASE_ADDRESSES.AerodromeRouter, abi: aeroAbi, blockNumber } as const
      const amounts = await chain.readContract({
        ...read,
        functionName: 'getAmountsOut',
        args: [amountIn, [{ from: sell, to: buy, stable, factory }]],
      })
      const amountOut = amounts.at(-1) ?? 0n
      if (amountOut === 0n) continue
      const pool = await chain.readContract({
        ...read,
        functionName: 'poolFor',
        args: [sell, buy, stable, factory],
      })
      const feeBps = await chain.readContract({
        address: factory,
        abi: aeroAbi,
        functionName: 'getFee',
        args: [pool, stable],
        blockNumber,
      })
      candidates.push({ venue: 'Aerodrome_V2', amountOut, feeBps: Number(feeBps) })
    } catch {
      // no pool of this kind (the devnet has no stable pools)
    }
  }
  let best: PoolTruth | null = null
  for (const c of candidates) if (best === null || c.amountOut > best.amountOut) best = c
  return best
}

/**
 * `trader` sells `amount` WETH into Aerodrome's volatile WETH/USDC pool (approving the router first):
 * WETH is then cheaper there than on Uniswap, a venue gap the swap and arbitrage tests build on.
 */
export async function dumpWethOnAerodrome(
  chain: PublicClient,
  trader: WalletClient<Transport, Chain, Account>,
  amount: bigint,
) {
  const { WETH, USDC, AerodromeRouter, AerodromePoolFactory } = BASE_ADDRESSES
  await expectMined(
    chain,
    await trader.writeContract({
      address: WETH,
      abi: erc20Abi,
      functionName: 'approve',
      args: [AerodromeRouter, maxUint256],
    }),
  )
  const route = [{ from: WETH, to: USDC, stable: false, factory: AerodromePoolFactory }]
  await expectMined(
    chain,
    await trader.writeContract({
      address: AerodromeRouter,
      abi: aeroAbi,
      functionName: 'swapExactTokensForTokens',
      args: [amount, 0n, route, trader.account.address, maxUint256],
    }),
  )
}
