import { type Address, erc20Abi, isAddressEqual, type PublicClient, parseAbi } from 'viem'

const poolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
])

/** A Uniswap v3 UTIL/USDC pool: where UTIL is valued in dollars (credit top-ups, prop desk costs). */
export interface UtilPool {
  pool: Address
  util: Address
  usdc: Address
}

/** The pool's price: √(token1 per token0) × 2^96 in base units, and which side UTIL is on. */
export interface UtilPoolPrice {
  sqrtPriceX96: bigint
  utilIsToken0: boolean
}

/**
 * The pool's spot price now, or as of `blockNumber` (the state after that block: an `eth_call` at that
 * height). Throws when the pool does not pair UTIL with USDC or has no price; the RPC's own errors pass through.
 */
export async function readUtilPoolPrice(
  chain: PublicClient,
  p: UtilPool,
  blockNumber?: bigint,
): Promise<UtilPoolPrice> {
  const at = blockNumber === undefined ? {} : { blockNumber }
  const [slot0, token0, token1] = await Promise.all([
    chain.readContract({ address: p.pool, abi: poolAbi, functionName: 'slot0', ...at }),
    chain.readContract({ address: p.pool, abi: poolAbi, functionName: 'token0' }),
    chain.readContract({ address: p.pool, abi: poolAbi, functionName: 'token1' }),
  ])
  const utilIsToken0 = isAddressEqual(token0, p.util)
  const other = utilIsToken0 ? token1 : token0
  if (!(utilIsToken0 || isAddressEqual(token1, p.util)) || !isAddressEqual(other, p.usdc)) {
    throw new Error(`pool ${p.pool} does not pair UTIL with USDC`)
  }
  if (slot0[0] === 0n)
    throw new Error(
      `pool ${p.pool} has no price${blockNumber === undefined ? '' : ` at block ${blockNumber}`}`,
    )
  return { sqrtPriceX96: slot0[0], utilIsToken0 }
}

/** The USDC the pool holds after `blockNumber`: its depth on the USDC side. */
export function readPoolUsdc(chain: PublicClient, p: UtilPool, blockNumber: bigint): Promise<bigint> {
  return chain.readContract({
    address: p.usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [p.pool],
    blockNumber,
  })
}
