import { type Address, erc20Abi, maxUint256, parseAbi } from 'viem'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import type { DeployContext } from '../deployContext.js'
import type { DevnetModule } from './registry.js'
import { ensureDeployerBalance } from './tokens.js'

/** Aerodrome on Base (protocols.md §4–5, aerodrome-finance/contracts README). */
export const AERODROME_ADDRESSES = {
  router: BASE_ADDRESSES.AerodromeRouter,
  poolFactory: BASE_ADDRESSES.AerodromePoolFactory,
  /** Reported by the router's voter(); no code is deployed there. */
  voter: BASE_ADDRESSES.AerodromeVoter,
  /** Reported by factoryRegistry() only (UNCERTAIN Base address; no code is deployed there). */
  factoryRegistry: BASE_ADDRESSES.AerodromeFactoryRegistry,
} as const satisfies Record<string, Address>

/** Volatile pool swap fee: 30 bps of the input (PoolFactory.volatileFee, denominator 10,000). */
export const AERODROME_VOLATILE_FEE_BPS = 30

export const aerodromeStandInAbi = parseAbi([
  'struct Route { address from; address to; bool stable; address factory; }',
  'function addLiquidity(address tokenA, address tokenB, bool stable, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)',
  'function removeLiquidity(address tokenA, address tokenB, bool stable, uint256 liquidity, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, Route[] routes, address to, uint256 deadline) returns (uint256[] amounts)',
  'function quoteAddLiquidity(address tokenA, address tokenB, bool stable, address _factory, uint256 amountADesired, uint256 amountBDesired) view returns (uint256 amountA, uint256 amountB, uint256 liquidity)',
  'function quoteRemoveLiquidity(address tokenA, address tokenB, bool stable, address _factory, uint256 liquidity) view returns (uint256 amountA, uint256 amountB)',
  'function getAmountsOut(uint256 amountIn, Route[] routes) view returns (uint256[] amounts)',
  'function getReserves(address tokenA, address tokenB, bool stable, address _factory) view returns (uint256 reserveA, uint256 reserveB)',
  'function poolFor(address tokenA, address tokenB, bool stable, address _factory) view returns (address pool)',
  'function getPool(address tokenA, address tokenB, bool stable) view returns (address)',
  'function allPoolsLength() view returns (uint256)',
  'function getFee(address pool, bool stable) view returns (uint256)',
  'event Mint(address indexed sender, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed sender, address indexed to, uint256 amount0, uint256 amount1)',
  'event Swap(address indexed sender, address indexed to, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out)',
  'event Sync(uint256 reserve0, uint256 reserve1)',
  'event PoolCreated(address indexed token0, address indexed token1, bool indexed stable, address pool, uint256)',
  'error NotImplemented(bytes4 selector)',
  'error Expired()',
  'error InsufficientAmountA()',
  'error InsufficientAmountB()',
  'error InsufficientAmountAOptimal()',
  'error InsufficientLiquidity()',
  'error InsufficientOutputAmount()',
  'error PoolDoesNotExist()',
  'error PoolFactoryDoesNotExist()',
  'error StableNotSupported()',
  'error K()',
])

export interface AerodromeSeed {
  tokenA: Address
  tokenB: Address
  amountA: bigint
  amountB: bigint
}

export interface DeployAerodromeDeps {
  usdc: Address
  weth: Address
  /** Volatile pools the deployer seeds; default: 100 WETH / 350,000 USDC. */
  seeds?: readonly AerodromeSeed[]
}

export interface AerodromeDeployment {
  router: Address
  poolFactory: Address
  poolImplementation: Address
  pools: Address[]
}

/**
 * Etch the Aerodrome Router and PoolFactory stand-ins at their Base addresses (volatile pools only, cloned
 * from a pool implementation at a scratch address with the real CREATE2 salt) and seed volatile pools.
 */
export async function deployAerodrome(
  ctx: DeployContext,
  deps: DeployAerodromeDeps,
): Promise<AerodromeDeployment> {
  const poolImplementation = await ctx.deploy('AerodromePoolStandIn')
  const poolFactory = await ctx.etch('AerodromePoolFactoryStandIn', AERODROME_ADDRESSES.poolFactory, [
    ctx.deployer,
    poolImplementation,
  ])
  const router = await ctx.etch('AerodromeRouterStandIn', AERODROME_ADDRESSES.router, [
    AERODROME_ADDRESSES.factoryRegistry,
    poolFactory,
    AERODROME_ADDRESSES.voter,
    deps.weth,
  ])
  const seeds = deps.seeds ?? [
    { tokenA: deps.weth, tokenB: deps.usdc, amountA: 100n * 10n ** 18n, amountB: 350_000n * 10n ** 6n },
  ]
  const pools: Address[] = []
  for (const seed of seeds) {
    await ensureDeployerBalance(ctx, seed.tokenA, seed.amountA)
    await ensureDeployerBalance(ctx, seed.tokenB, seed.amountB)
    await ctx.write({
      address: seed.tokenA,
      abi: erc20Abi,
      functionName: 'approve',
      args: [router, maxUint256],
    })
    await ctx.write({
      address: seed.tokenB,
      abi: erc20Abi,
      functionName: 'approve',
      args: [router, maxUint256],
    })
    await ctx.write({
      address: router,
      abi: aerodromeStandInAbi,
      functionName: 'addLiquidity',
      args: [seed.tokenA, seed.tokenB, false, seed.amountA, seed.amountB, 0n, 0n, ctx.deployer, maxUint256],
    })
    pools.push(
      await ctx.read<Address>({
        address: poolFactory,
        abi: aerodromeStandInAbi,
        functionName: 'getPool',
        args: [seed.tokenA, seed.tokenB, false],
      }),
    )
  }
  return { router, poolFactory, poolImplementation, pools }
}

/** buildDevnetState plug-in: a WETH/USDC volatile pool at the build's ETH price (100 WETH per side). */
export const devnetModule: DevnetModule = {
  name: 'aerodrome',
  async deploy(ctx, core) {
    const { USDC, WETH } = core.tokens
    const usdcAmount = BigInt(Math.round(core.prices.ethUsd * 100)) * 10n ** 6n
    const d = await deployAerodrome(ctx, {
      usdc: USDC,
      weth: WETH,
      seeds: [{ tokenA: WETH, tokenB: USDC, amountA: 100n * 10n ** 18n, amountB: usdcAmount }],
    })
    return {
      router: d.router,
      poolFactory: d.poolFactory,
      poolImplementation: d.poolImplementation,
      pools: d.pools,
      volatileFeeBps: AERODROME_VOLATILE_FEE_BPS,
    }
  },
}
