import { parseAbi } from 'viem'

/**
 * The swap venues' ABIs the service reads and encodes against (protocols.md §4): Uniswap v3 QuoterV2 and
 * SwapRouter02, the Aerodrome Router (volatile and stable `Route`s) and PoolFactory.
 *
 * QuoterV2's quote functions are not `view` onchain (they run the swap and revert with the result); they
 * are declared `view` here because they are only ever `eth_call`ed, which lets them sit in a multicall.
 */
export const quoterV2Abi = parseAbi([
  'struct QuoteExactInputSingleParams { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }',
  'function quoteExactInputSingle(QuoteExactInputSingleParams params) view returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
])

export const swapRouter02Abi = parseAbi([
  'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)',
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[])',
  'function unwrapWETH9(uint256 amountMinimum, address recipient) payable',
])

export const aerodromeRouterAbi = parseAbi([
  'struct Route { address from; address to; bool stable; address factory; }',
  'function getAmountsOut(uint256 amountIn, Route[] routes) view returns (uint256[] amounts)',
  'function poolFor(address tokenA, address tokenB, bool stable, address _factory) view returns (address pool)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, Route[] routes, address to, uint256 deadline) returns (uint256[] amounts)',
])

/** Pool fee in basis points of the input (denominator 10,000). */
export const aerodromePoolFactoryAbi = parseAbi([
  'function getFee(address pool, bool stable) view returns (uint256)',
  'function getPool(address tokenA, address tokenB, bool stable) view returns (address)',
])

/** Uniswap v3 fee tiers on Base, in hundredths of a basis point (100 = 0.01 %). */
export const UNISWAP_V3_FEE_TIERS = [100, 500, 3000, 10_000] as const

/** Multicall3's block facts (at its usual address on Base and the devnet), read inside the same multicall. */
export const multicall3BlockFactsAbi = parseAbi([
  'function getBlockNumber() view returns (uint256 blockNumber)',
  'function getBasefee() view returns (uint256 basefee)',
])
