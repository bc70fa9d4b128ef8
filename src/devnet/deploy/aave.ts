import { type Address, getAddress, maxUint256, parseAbi, parseUnits, zeroAddress } from 'viem'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import type { DeployContext } from '../deployContext.js'
import { approve, ensureDeployerBalance } from './tokens.js'

export interface AaveReserve {
  asset: Address
  aToken: Address
  variableDebtToken: Address
  stableDebtToken: Address
  /** Price feed AaveOracle reads for this asset (settable by the deployer). */
  priceFeed: Address
}

export interface AaveDeployment {
  poolAddressesProvider: Address
  pool: Address
  poolConfigurator: Address
  aclManager: Address
  oracle: Address
  protocolDataProvider: Address
  reserves: { USDC: AaveReserve; WETH: AaveReserve; cbBTC: AaveReserve }
}

export interface DeployAaveDeps {
  USDC: Address
  WETH: Address
  cbBTC: Address
  feeds: { ETH_USD: Address; BTC_USD: Address; USDC_USD: Address }
}

export class AaveDeployError extends Error {
  override readonly name = 'AaveDeployError'
}

const providerAbi = parseAbi([
  'function setACLAdmin(address)',
  'function setACLManager(address)',
  'function setPoolImpl(address)',
  'function setPoolConfiguratorImpl(address)',
  'function setPriceOracle(address)',
  'function setPoolDataProvider(address)',
  'function getPool() view returns (address)',
  'function getPoolConfigurator() view returns (address)',
])
const aclAbi = parseAbi(['function addPoolAdmin(address)', 'function addRiskAdmin(address)'])
const configuratorAbi = parseAbi([
  'struct InitReserveInput { address aTokenImpl; address stableDebtTokenImpl; address variableDebtTokenImpl; uint8 underlyingAssetDecimals; address interestRateStrategyAddress; address underlyingAsset; address treasury; address incentivesController; string aTokenName; string aTokenSymbol; string variableDebtTokenName; string variableDebtTokenSymbol; string stableDebtTokenName; string stableDebtTokenSymbol; bytes params; }',
  'function initReserves(InitReserveInput[] input)',
  'function configureReserveAsCollateral(address asset, uint256 ltv, uint256 liquidationThreshold, uint256 liquidationBonus)',
  'function setReserveBorrowing(address asset, bool enabled)',
  'function setReserveFactor(address asset, uint256 newReserveFactor)',
])
const poolAbi = parseAbi([
  'function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)',
  'function borrow(address asset, uint256 amount, uint256 interestRateMode, uint16 referralCode, address onBehalfOf)',
  'function getReserveData(address asset) view returns ((uint256 configuration, uint128 liquidityIndex, uint128 currentLiquidityRate, uint128 variableBorrowIndex, uint128 currentVariableBorrowRate, uint128 currentStableBorrowRate, uint40 lastUpdateTimestamp, uint16 id, address aTokenAddress, address stableDebtTokenAddress, address variableDebtTokenAddress, address interestRateStrategyAddress, uint128 accruedToTreasury, uint128 unbacked, uint128 isolationModeTotalDebt))',
])

/** A percentage as a ray (1e27 = 100%, so 1% = 1e25). */
const ray = (percent: string): bigint => parseUnits(percent, 25)

/**
 * Reserves Aave on Base listed before USDC, in listing order. The PoolConfigurator CREATEs three token
 * proxies per reserve, so listing them (as inert placeholders: ERC-20s at their Base addresses, no
 * collateral, no borrowing) makes USDC's aToken and debt tokens land on their real Base addresses too.
 */
const PLACEHOLDER_RESERVES = [
  { symbol: 'cbETH', name: 'Coinbase Wrapped Staked ETH', address: BASE_ADDRESSES.cbETH, decimals: 18 },
  { symbol: 'USDbC', name: 'USD Base Coin', address: BASE_ADDRESSES.USDbC, decimals: 6 },
  { symbol: 'wstETH', name: 'Wrapped liquid staked Ether 2.0', address: BASE_ADDRESSES.wstETH, decimals: 18 },
] as const

interface ReserveSpec {
  key: 'USDC' | 'WETH' | 'cbBTC' | (typeof PLACEHOLDER_RESERVES)[number]['symbol']
  /** Placeholders are listed only; they are neither collateral nor borrowable and get no liquidity. */
  placeholder?: boolean
  asset: Address
  decimals: number
  feed: Address
  /** Basis points: LTV, liquidation threshold, liquidation bonus (10000 + bonus). */
  ltv: bigint
  liquidationThreshold: bigint
  liquidationBonus: bigint
  strategy: { optimal: string; base: string; slope1: string; slope2: string }
}

/**
 * Aave v3 (v1.19.3 bytecode from @aave/core-v3). The PoolAddressesProvider is etched at its Base address
 * with nonce 1, so the Pool and PoolConfigurator proxies it CREATEs land on their Base addresses too.
 * AaveOracle and the data provider are etched at theirs. Reserves: USDC, WETH, cbBTC, priced by the devnet
 * feeds. Libraries are linked by patching link references (FlashLoanLogic itself links BorrowLogic).
 */
export async function deployAave(ctx: DeployContext, deps: DeployAaveDeps): Promise<AaveDeployment> {
  const provider = await ctx.etch('PoolAddressesProvider', BASE_ADDRESSES.AavePoolAddressesProvider, [
    'Aave Base Market',
    ctx.deployer,
  ])
  await ctx.write({ address: provider, abi: providerAbi, functionName: 'setACLAdmin', args: [ctx.deployer] })
  const aclManager = await ctx.deploy('ACLManager', [provider])
  await ctx.write({ address: provider, abi: providerAbi, functionName: 'setACLManager', args: [aclManager] })
  await ctx.write({ address: aclManager, abi: aclAbi, functionName: 'addPoolAdmin', args: [ctx.deployer] })
  await ctx.write({ address: aclManager, abi: aclAbi, functionName: 'addRiskAdmin', args: [ctx.deployer] })

  const libraries: Record<string, Address> = {}
  for (const name of [
    'BorrowLogic',
    'BridgeLogic',
    'EModeLogic',
    'LiquidationLogic',
    'PoolLogic',
    'SupplyLogic',
  ]) {
    libraries[name] = await ctx.deploy(name)
  }
  libraries.FlashLoanLogic = await ctx.deploy('FlashLoanLogic', [], { BorrowLogic: libraries.BorrowLogic! })
  const configuratorLogic = await ctx.deploy('ConfiguratorLogic')

  const poolImpl = await ctx.deploy('L2Pool', [provider], libraries)
  await ctx.write({ address: provider, abi: providerAbi, functionName: 'setPoolImpl', args: [poolImpl] })
  const configuratorImpl = await ctx.deploy('PoolConfigurator', [], { ConfiguratorLogic: configuratorLogic })
  await ctx.write({
    address: provider,
    abi: providerAbi,
    functionName: 'setPoolConfiguratorImpl',
    args: [configuratorImpl],
  })
  const pool = getAddress(
    await ctx.read<Address>({ address: provider, abi: providerAbi, functionName: 'getPool' }),
  )
  const poolConfigurator = getAddress(
    await ctx.read<Address>({ address: provider, abi: providerAbi, functionName: 'getPoolConfigurator' }),
  )
  if (pool !== BASE_ADDRESSES.AavePool || poolConfigurator !== BASE_ADDRESSES.AavePoolConfigurator) {
    throw new AaveDeployError(
      `Aave proxies landed at ${pool} / ${poolConfigurator}, not at the Base addresses`,
    )
  }

  const specs: ReserveSpec[] = [
    {
      key: 'WETH',
      asset: deps.WETH,
      decimals: 18,
      feed: deps.feeds.ETH_USD,
      ltv: 8000n,
      liquidationThreshold: 8300n,
      liquidationBonus: 10500n,
      strategy: { optimal: '90', base: '0', slope1: '2.7', slope2: '80' },
    },
    ...(await deployPlaceholderReserves(ctx, deps)),
    {
      key: 'USDC',
      asset: deps.USDC,
      decimals: 6,
      feed: deps.feeds.USDC_USD,
      ltv: 7500n,
      liquidationThreshold: 7800n,
      liquidationBonus: 10500n,
      strategy: { optimal: '90', base: '0', slope1: '6', slope2: '60' },
    },
    {
      key: 'cbBTC',
      asset: deps.cbBTC,
      decimals: 8,
      feed: deps.feeds.BTC_USD,
      ltv: 7300n,
      liquidationThreshold: 7800n,
      liquidationBonus: 10750n,
      strategy: { optimal: '80', base: '0', slope1: '4', slope2: '300' },
    },
  ]

  // AaveOracle quotes in USD with 8 decimals (base currency = address(0), unit 1e8), like Aave on Base.
  const oracle = await ctx.etch('AaveOracle', BASE_ADDRESSES.AaveOracle, [
    provider,
    specs.map((s) => s.asset),
    specs.map((s) => s.feed),
    zeroAddress,
    zeroAddress,
    10n ** 8n,
  ])
  await ctx.write({ address: provider, abi: providerAbi, functionName: 'setPriceOracle', args: [oracle] })
  const protocolDataProvider = await ctx.etch(
    'AaveProtocolDataProvider',
    BASE_ADDRESSES.AaveProtocolDataProvider,
    [provider],
  )
  await ctx.write({
    address: provider,
    abi: providerAbi,
    functionName: 'setPoolDataProvider',
    args: [protocolDataProvider],
  })

  const aTokenImpl = await ctx.deploy('AToken', [pool])
  const variableDebtImpl = await ctx.deploy('VariableDebtToken', [pool])
  const stableDebtImpl = await ctx.deploy('StableDebtToken', [pool])
  const inputs = []
  for (const spec of specs) {
    const strategy = await ctx.deploy('DefaultReserveInterestRateStrategy', [
      provider,
      ray(spec.strategy.optimal),
      ray(spec.strategy.base),
      ray(spec.strategy.slope1),
      ray(spec.strategy.slope2),
      0n,
      0n,
      0n,
      0n,
      ray('20'),
    ])
    inputs.push({
      aTokenImpl,
      stableDebtTokenImpl: stableDebtImpl,
      variableDebtTokenImpl: variableDebtImpl,
      underlyingAssetDecimals: spec.decimals,
      interestRateStrategyAddress: strategy,
      underlyingAsset: spec.asset,
      treasury: ctx.deployer,
      incentivesController: zeroAddress,
      aTokenName: `Aave Base ${spec.key}`,
      aTokenSymbol: `aBas${spec.key}`,
      variableDebtTokenName: `Aave Base Variable Debt ${spec.key}`,
      variableDebtTokenSymbol: `variableDebtBas${spec.key}`,
      stableDebtTokenName: `Aave Base Stable Debt ${spec.key}`,
      stableDebtTokenSymbol: `stableDebtBas${spec.key}`,
      params: '0x' as const,
    })
  }
  await ctx.write({
    address: poolConfigurator,
    abi: configuratorAbi,
    functionName: 'initReserves',
    args: [inputs],
  })
  const active = specs.filter((spec) => spec.placeholder !== true)
  for (const spec of active) {
    await ctx.write({
      address: poolConfigurator,
      abi: configuratorAbi,
      functionName: 'configureReserveAsCollateral',
      args: [spec.asset, spec.ltv, spec.liquidationThreshold, spec.liquidationBonus],
    })
    await ctx.write({
      address: poolConfigurator,
      abi: configuratorAbi,
      functionName: 'setReserveBorrowing',
      args: [spec.asset, true],
    })
    await ctx.write({
      address: poolConfigurator,
      abi: configuratorAbi,
      functionName: 'setReserveFactor',
      args: [spec.asset, 1000n],
    })
  }

  // Seed liquidity so users can borrow, plus a deployer borrow so supply rates are non-zero.
  const seeds: Record<keyof AaveDeployment['reserves'], bigint> = {
    USDC: parseUnits('20000000', 6),
    WETH: parseUnits('5000', 18),
    cbBTC: parseUnits('200', 8),
  }
  for (const spec of active) {
    const amount = seeds[spec.key as keyof AaveDeployment['reserves']]
    await ensureDeployerBalance(ctx, spec.asset, amount)
    await approve(ctx, spec.asset, pool, maxUint256)
    await ctx.write({
      address: pool,
      abi: poolAbi,
      functionName: 'supply',
      args: [spec.asset, amount, ctx.deployer, 0],
    })
  }
  await ctx.write({
    address: pool,
    abi: poolAbi,
    functionName: 'borrow',
    args: [deps.USDC, parseUnits('10000000', 6), 2n, 0, ctx.deployer],
  })
  await ctx.write({
    address: pool,
    abi: poolAbi,
    functionName: 'borrow',
    args: [deps.WETH, parseUnits('2000', 18), 2n, 0, ctx.deployer],
  })

  const reserves = {} as AaveDeployment['reserves']
  for (const spec of active) {
    const data = await ctx.read<{
      aTokenAddress: Address
      stableDebtTokenAddress: Address
      variableDebtTokenAddress: Address
    }>({ address: pool, abi: poolAbi, functionName: 'getReserveData', args: [spec.asset] })
    reserves[spec.key as keyof AaveDeployment['reserves']] = {
      asset: spec.asset,
      aToken: getAddress(data.aTokenAddress),
      variableDebtToken: getAddress(data.variableDebtTokenAddress),
      stableDebtToken: getAddress(data.stableDebtTokenAddress),
      priceFeed: spec.feed,
    }
  }
  return {
    poolAddressesProvider: provider,
    pool,
    poolConfigurator,
    aclManager,
    oracle,
    protocolDataProvider,
    reserves,
  }
}

/** Plain ERC-20s at the placeholder reserves' Base addresses, priced by the closest devnet feed. */
async function deployPlaceholderReserves(ctx: DeployContext, deps: DeployAaveDeps): Promise<ReserveSpec[]> {
  const specs: ReserveSpec[] = []
  for (const token of PLACEHOLDER_RESERVES) {
    const asset = await ctx.etch('MintableToken', token.address, [
      token.name,
      token.symbol,
      token.decimals,
      ctx.deployer,
    ])
    specs.push({
      key: token.symbol,
      placeholder: true,
      asset,
      decimals: token.decimals,
      feed: token.symbol === 'USDbC' ? deps.feeds.USDC_USD : deps.feeds.ETH_USD,
      ltv: 0n,
      liquidationThreshold: 0n,
      liquidationBonus: 0n,
      strategy: { optimal: '90', base: '0', slope1: '4', slope2: '60' },
    })
  }
  return specs
}
