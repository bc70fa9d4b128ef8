import { type Address, encodeAbiParameters, getContractAddress, keccak256, parseAbi } from 'viem'
import { BASE_ADDRESSES } from './addresses.js'

/** keccak256 of the UniswapV3Pool creation code: the same on Base as on mainnet (protocols.md §5). */
export const UNISWAP_V3_POOL_INIT_CODE_HASH =
  '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54' as const

/** The pool views the reads use. */
export const uniswapV3PoolAbi = parseAbi([
  'function liquidity() view returns (uint128)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
])

/**
 * The address of the Uniswap v3 pool of two tokens at a fee tier, whether or not it was created: the
 * factory's CREATE2 of (token0, token1, fee). Computing it lets a read ask a pool for its state in the same
 * multicall as everything else, instead of asking the factory first; a pool that does not exist has no code,
 * so its calls fail.
 */
export function uniswapV3PoolAddress(tokenA: Address, tokenB: Address, fee: number): Address {
  const [token0, token1] = tokenA.toLowerCase() < tokenB.toLowerCase() ? [tokenA, tokenB] : [tokenB, tokenA]
  return getContractAddress({
    opcode: 'CREATE2',
    from: BASE_ADDRESSES.UniswapV3Factory,
    salt: keccak256(
      encodeAbiParameters(
        [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }],
        [token0, token1, fee],
      ),
    ),
    bytecodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
  })
}
