import { type Address, erc20Abi, getAddress, maxUint256, parseAbi, parseUnits } from 'viem'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import type { DeployContext } from '../deployContext.js'
import { approve, ensureDeployerBalance } from './tokens.js'

export interface UniswapDeployment {
  factory: Address
  positionManager: Address
  swapRouter02: Address
  quoterV2: Address
  tickLens: Address
}

/**
 * Uniswap v3 core and periphery at their Base addresses. The factory's NoDelegateCall immutable is
 * re-pointed to the Base address so createPool works there, and pools then deploy at their real CREATE2
 * addresses (the npm init-code hash is the mainnet one).
 */
export async function deployUniswap(ctx: DeployContext, deps: { WETH: Address }): Promise<UniswapDeployment> {
  const factory = await ctx.etch(
    'UniswapV3Factory',
    BASE_ADDRESSES.UniswapV3Factory,
    [],
    {},
    { patchSelfAddress: true },
  )
  // Base's factory has the 0.01% tier as well (enabled by governance after launch).
  await ctx.write({
    address: factory,
    abi: parseAbi(['function enableFeeAmount(uint24 fee, int24 tickSpacing)']),
    functionName: 'enableFeeAmount',
    args: [100, 1],
  })
  // The NFT descriptor only renders tokenURI; no flow needs it, so it is left unset (address 0).
  const positionManager = await ctx.etch(
    'NonfungiblePositionManager',
    BASE_ADDRESSES.NonfungiblePositionManager,
    [factory, deps.WETH, '0x0000000000000000000000000000000000000000'],
  )
  const swapRouter02 = await ctx.etch('SwapRouter02', BASE_ADDRESSES.SwapRouter02, [
    BASE_ADDRESSES.UniswapV2Factory,
    factory,
    positionManager,
    deps.WETH,
  ])
  const quoterV2 = await ctx.etch('QuoterV2', BASE_ADDRESSES.QuoterV2, [factory, deps.WETH])
  const tickLens = await ctx.etch('TickLens', BASE_ADDRESSES.TickLens)
  return { factory, positionManager, swapRouter02, quoterV2, tickLens }
}

export interface SeedPoolParams {
  tokenA: Address
  tokenB: Address
  /** Fee tier in hundredths of a bip: 100, 500, 3000 or 10000. */
  fee: 100 | 500 | 3000 | 10000
  /** USD price of one whole tokenA and one whole tokenB; the pool starts at their ratio. */
  priceAUsd: number
  priceBUsd: number
  /** Approximate USD value deposited on each side, as one full-range position. */
  liquidityUsdPerSide: number
  /** Owner of the position NFT; defaults to the deployer. */
  recipient?: Address
  /**
   * How many price observations the pool's oracle keeps (Uniswap starts a pool at 1, which answers `observe`
   * only back to its last swap): enough for a time-weighted price over its traffic's window.
   */
  observationCardinality?: number
}

export interface SeededPool {
  pool: Address
  token0: Address
  token1: Address
  fee: number
  sqrtPriceX96: bigint
  tokenId: bigint
  liquidity: bigint
}

const TICK_SPACING: Record<number, number> = { 100: 1, 500: 10, 3000: 60, 10000: 200 }
const MAX_TICK = 887272
const Q96 = 2n ** 96n

const positionManagerAbi = parseAbi([
  'function createAndInitializePoolIfNecessary(address token0, address token1, uint24 fee, uint160 sqrtPriceX96) payable returns (address pool)',
  'struct MintParams { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }',
  'function mint(MintParams params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
  'function totalSupply() view returns (uint256)',
  'function tokenByIndex(uint256 index) view returns (uint256)',
  'function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)',
])
const factoryAbi = parseAbi(['function getPool(address, address, uint24) view returns (address)'])
const poolOracleAbi = parseAbi([
  'function increaseObservationCardinalityNext(uint16 observationCardinalityNext)',
])

export class SeedPoolError extends Error {
  override readonly name = 'SeedPoolError'
}

/** USD price as an exact decimal with 18 fractional digits (avoids float exponent notation). */
function usd18(price: number): bigint {
  if (!Number.isFinite(price) || price <= 0)
    throw new SeedPoolError(`price must be a positive number, got ${price}`)
  return parseUnits(price.toFixed(18), 18)
}

function isqrt(value: bigint): bigint {
  if (value < 2n) return value
  // Newton's method started above the root decreases monotonically to floor(sqrt). A float first guess
  // can land below the root, where correcting one step at a time never finishes for large values.
  let x = 1n << ((BigInt(value.toString(2).length) + 1n) >> 1n)
  for (;;) {
    const y = (x + value / x) >> 1n
    if (y >= x) return x
    x = y
  }
}

/**
 * sqrtPriceX96 for a pool whose token1-per-token0 price (in raw units) equals the USD price ratio:
 * price1per0 = (usd0 / usd1) · 10^(decimals1 − decimals0).
 */
export function sqrtPriceX96FromUsd(
  usd0: number,
  decimals0: number,
  usd1: number,
  decimals1: number,
): bigint {
  const numerator = usd18(usd0) * 10n ** BigInt(decimals1)
  const denominator = usd18(usd1) * 10n ** BigInt(decimals0)
  return isqrt((numerator * Q96 * Q96) / denominator)
}

/** Amount of a token (raw units) worth `usd` at `priceUsd` per whole token. */
export function amountForUsd(usd: number, priceUsd: number, decimals: number): bigint {
  return (usd18(usd) * 10n ** BigInt(decimals)) / usd18(priceUsd)
}

/**
 * Create (if needed) and initialise a Uniswap v3 pool at the USD price ratio of its tokens, then add one
 * full-range position worth about `liquidityUsdPerSide` on each side. The deployer must be able to obtain
 * both tokens (see ensureDeployerBalance: WETH is wrapped, UTIL is held, others need a deployer `mint`).
 * Exported for other deploy modules (e.g. stock/USDC pools).
 */
export async function seedPool(ctx: DeployContext, params: SeedPoolParams): Promise<SeededPool> {
  const spacing = TICK_SPACING[params.fee]
  if (spacing === undefined) throw new SeedPoolError(`unsupported fee tier ${params.fee}`)
  const aIsToken0 = params.tokenA.toLowerCase() < params.tokenB.toLowerCase()
  const [token0, token1] = aIsToken0 ? [params.tokenA, params.tokenB] : [params.tokenB, params.tokenA]
  const [usd0, usd1] = aIsToken0 ? [params.priceAUsd, params.priceBUsd] : [params.priceBUsd, params.priceAUsd]
  const [decimals0, decimals1] = await Promise.all(
    [token0, token1].map((token) =>
      ctx.read<number>({ address: token, abi: erc20Abi, functionName: 'decimals' }),
    ),
  )
  if (decimals0 === undefined || decimals1 === undefined) throw new SeedPoolError('could not read decimals')
  const sqrtPriceX96 = sqrtPriceX96FromUsd(usd0, decimals0, usd1, decimals1)
  const amount0 = amountForUsd(params.liquidityUsdPerSide, usd0, decimals0)
  const amount1 = amountForUsd(params.liquidityUsdPerSide, usd1, decimals1)
  const positionManager = BASE_ADDRESSES.NonfungiblePositionManager

  await ensureDeployerBalance(ctx, token0, amount0)
  await ensureDeployerBalance(ctx, token1, amount1)
  await approve(ctx, token0, positionManager, maxUint256)
  await approve(ctx, token1, positionManager, maxUint256)
  await ctx.write({
    address: positionManager,
    abi: positionManagerAbi,
    functionName: 'createAndInitializePoolIfNecessary',
    args: [token0, token1, params.fee, sqrtPriceX96],
  })
  const maxTick = Math.floor(MAX_TICK / spacing) * spacing
  const recipient = params.recipient ?? ctx.deployer
  const receipt = await ctx.write({
    address: positionManager,
    abi: positionManagerAbi,
    functionName: 'mint',
    args: [
      {
        token0,
        token1,
        fee: params.fee,
        tickLower: -maxTick,
        tickUpper: maxTick,
        amount0Desired: amount0,
        amount1Desired: amount1,
        amount0Min: 0n,
        amount1Min: 0n,
        recipient,
        deadline: maxUint256,
      },
    ],
  })
  // The newest NFT is ours: read it back rather than decode logs, which keeps this helper ABI-light.
  const supply = await ctx.read<bigint>({
    address: positionManager,
    abi: positionManagerAbi,
    functionName: 'totalSupply',
  })
  const tokenId = await ctx.read<bigint>({
    address: positionManager,
    abi: positionManagerAbi,
    functionName: 'tokenByIndex',
    args: [supply - 1n],
  })
  const position = await ctx.read<
    readonly [bigint, Address, Address, Address, number, number, number, bigint]
  >({
    address: positionManager,
    abi: positionManagerAbi,
    functionName: 'positions',
    args: [tokenId],
  })
  const pool = await ctx.read<Address>({
    address: BASE_ADDRESSES.UniswapV3Factory,
    abi: factoryAbi,
    functionName: 'getPool',
    args: [token0, token1, params.fee],
  })
  if (receipt.status !== 'success') throw new SeedPoolError('mint failed')
  // Slots are paid for as the ring grows: in steps, each transaction well under a block's gas.
  for (let next = 200; next < (params.observationCardinality ?? 0) + 200; next += 200) {
    const cardinality = Math.min(next, params.observationCardinality ?? 0)
    const grown = await ctx.write({
      address: getAddress(pool),
      abi: poolOracleAbi,
      functionName: 'increaseObservationCardinalityNext',
      args: [cardinality],
    })
    if (grown.status !== 'success') throw new SeedPoolError('increaseObservationCardinalityNext failed')
  }
  return {
    pool: getAddress(pool),
    token0,
    token1,
    fee: params.fee,
    sqrtPriceX96,
    tokenId,
    liquidity: position[7],
  }
}
