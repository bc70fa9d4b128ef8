import { type Abi, type Address, erc20Abi, getAddress, parseAbi, zeroAddress, zeroHash } from 'viem'
import { positionManagerAbi } from '../builders/lp/lpAbis.js'
import { riskDiamondAbi } from '../builders/risk/riskAbi.js'
import { BASE_ADDRESSES, X402_BATCH_SETTLEMENT } from '../chain/addresses.js'
import {
  aaveOracleAbi,
  aavePoolReadAbi,
  erc4626ReadAbi,
  metaMorphoReadAbi,
  multicall3BlockAbi,
} from '../chain/lendingAbis.js'
import { midnightAbi } from '../chain/midnight.js'
import { morphoAbi } from '../chain/morpho.js'
import { aerodromePoolFactoryAbi, aerodromeRouterAbi, quoterV2Abi } from '../chain/swapVenueAbis.js'
import { stockFeedAbi, stockRegistryAbi, TOKENIZED_STOCKS } from '../chain/tokenizedStocks.js'
import { uniswapV3PoolAbi } from '../chain/uniswapV3Pool.js'
import type { Config } from '../config.js'
import { USDC_SETTLEMENT_ABI } from '../payments/exact/settlementOutcome.js'

/** One contract the service depends on, and the view call it depends on that contract answering. */
export interface PreflightCheck {
  /** The name an operator finds it by: the address-book key (src/chain/addresses.ts) or the catalog entry. */
  contract: string
  address: Address
  /** Code is required, except at precompiles (Base's B20 stock tokens have none, yet answer). */
  needsCode: boolean
  /** The view, with arguments whose answer exists on Base; undefined: only the code is checked. */
  call?: { abi: Abi; functionName: string; args: readonly unknown[] }
  /** What the answer must be, beyond not reverting; undefined when it is fine, else what is wrong. */
  expect?: (result: unknown) => string | undefined
}

const peripheryAbi = parseAbi(['function factory() view returns (address)'])
const irmAbi = parseAbi(['function MORPHO() view returns (address)'])
const providerAbi = parseAbi(['function getPool() view returns (address)'])

/** An answer that must be this address (a factory or provider pointing where the address book says). */
const isAddress = (want: Address) => (got: unknown) =>
  typeof got === 'string' && getAddress(got) === getAddress(want)
    ? undefined
    : `answered ${String(got)}, not ${want}`

const view = (abi: Abi, functionName: string, args: readonly unknown[] = []) => ({ abi, functionName, args })

/**
 * The production preflight's list, built from the configuration (its lending catalog, UTIL token and
 * pool): every contract the service calls, each with one view it depends on, chosen to answer on Base
 * whatever the market state (Midnight's `withdrawable` of the zero id answers 0, where `toMarket` would
 * revert MarketNotCreated). Not checked, because
 * the service never calls them: UniswapV2Factory (a SwapRouter02 constructor argument), TickLens, the Aave
 * PoolConfigurator and ProtocolDataProvider, the Aave-only placeholders (cbETH, USDbC, wstETH), Aerodrome's
 * Voter and FactoryRegistry, Midnight's SetterRatifier; the 0x Settler registry is read only with a 0x key.
 */
export function preflightChecks(config: Config): PreflightCheck[] {
  const A = BASE_ADDRESSES
  const checks: PreflightCheck[] = [
    {
      contract: 'USDC',
      address: A.USDC,
      needsCode: true,
      call: view(USDC_SETTLEMENT_ABI, 'authorizationState', [zeroAddress, zeroHash]),
    },
    { contract: 'WETH', address: A.WETH, needsCode: true, call: view(erc20Abi, 'decimals') },
    { contract: 'cbBTC', address: A.cbBTC, needsCode: true, call: view(erc20Abi, 'decimals') },
    {
      contract: 'Multicall3',
      address: A.Multicall3,
      needsCode: true,
      call: view(multicall3BlockAbi, 'getBlockNumber'),
    },
    {
      contract: 'UniswapV3Factory',
      address: A.UniswapV3Factory,
      needsCode: true,
      call: view(parseAbi(['function getPool(address, address, uint24) view returns (address)']), 'getPool', [
        A.WETH,
        A.USDC,
        500,
      ]),
      expect: isAddress(A.UniswapV3WethUsdc500Pool),
    },
    {
      contract: 'NonfungiblePositionManager',
      address: A.NonfungiblePositionManager,
      needsCode: true,
      call: view(positionManagerAbi, 'isApprovedForAll', [zeroAddress, zeroAddress]),
    },
    {
      contract: 'SwapRouter02',
      address: A.SwapRouter02,
      needsCode: true,
      call: view(peripheryAbi, 'factory'),
      expect: isAddress(A.UniswapV3Factory),
    },
    {
      contract: 'QuoterV2',
      address: A.QuoterV2,
      needsCode: true,
      call: view(quoterV2Abi, 'quoteExactInputSingle', [
        { tokenIn: A.USDC, tokenOut: A.WETH, amountIn: 1_000_000n, fee: 500, sqrtPriceLimitX96: 0n },
      ]),
    },
    {
      contract: 'UniswapV3WethUsdc500Pool',
      address: A.UniswapV3WethUsdc500Pool,
      needsCode: true,
      call: view(uniswapV3PoolAbi, 'slot0'),
    },
    {
      contract: 'MorphoBlue',
      address: A.MorphoBlue,
      needsCode: true,
      call: view(morphoAbi, 'idToMarketParams', [config.lending.morphoMarkets[0] ?? zeroHash]),
    },
    {
      contract: 'AdaptiveCurveIrm',
      address: A.AdaptiveCurveIrm,
      needsCode: true,
      call: view(irmAbi, 'MORPHO'),
      expect: isAddress(A.MorphoBlue),
    },
    {
      contract: 'AavePoolAddressesProvider',
      address: A.AavePoolAddressesProvider,
      needsCode: true,
      call: view(providerAbi, 'getPool'),
      expect: isAddress(A.AavePool),
    },
    {
      contract: 'AavePool',
      address: A.AavePool,
      needsCode: true,
      call: view(aavePoolReadAbi, 'getReserveData', [A.USDC]),
    },
    {
      contract: 'AaveOracle',
      address: A.AaveOracle,
      needsCode: true,
      call: view(aaveOracleAbi, 'getAssetPrice', [A.USDC]),
    },
    ...(['aBasWETH', 'variableDebtBasWETH', 'aBasUSDC', 'variableDebtBasUSDC'] as const).map((name) => ({
      contract: name,
      address: A[name],
      needsCode: true,
      call: view(erc20Abi, 'balanceOf', [zeroAddress]),
    })),
    {
      contract: 'GtradeDiamond',
      address: A.GtradeDiamond,
      needsCode: true,
      call: view(riskDiamondAbi, 'pairs', [0n]),
    },
    {
      contract: 'AerodromeRouter',
      address: A.AerodromeRouter,
      needsCode: true,
      call: view(aerodromeRouterAbi, 'poolFor', [A.USDC, A.WETH, false, A.AerodromePoolFactory]),
    },
    {
      contract: 'AerodromePoolFactory',
      address: A.AerodromePoolFactory,
      needsCode: true,
      call: view(aerodromePoolFactoryAbi, 'getPool', [A.USDC, A.WETH, false]),
    },
    {
      contract: 'MorphoMidnight',
      address: A.MorphoMidnight,
      needsCode: true,
      // `withdrawable` answers for any id; the real `toMarket` reverts MarketNotCreated for an unknown one.
      call: view(midnightAbi, 'withdrawable', [zeroHash]),
    },
    { contract: 'ZeroExAllowanceHolder', address: A.ZeroExAllowanceHolder, needsCode: true },
    {
      contract: 'StockOracleRegistry',
      address: A.StockOracleRegistry,
      needsCode: true,
      call: view(stockRegistryAbi, 'getOracleParams', [TOKENIZED_STOCKS.AAPLc.token]),
    },
    { contract: 'x402BatchSettlement', address: X402_BATCH_SETTLEMENT.settlement, needsCode: true },
    {
      contract: 'x402 ERC-3009 deposit collector',
      address: X402_BATCH_SETTLEMENT.erc3009DepositCollector,
      needsCode: true,
    },
  ]
  for (const [ticker, stock] of Object.entries(TOKENIZED_STOCKS)) {
    checks.push({
      contract: `${ticker} token`,
      address: stock.token,
      needsCode: false,
      call: view(erc20Abi, 'decimals'),
    })
    checks.push({
      contract: `${ticker} feed`,
      address: stock.feed,
      needsCode: true,
      call: view(stockFeedAbi, 'latestRoundData'),
    })
  }
  for (const vault of config.lending.vaults) {
    const call =
      vault.kind === 'metamorpho'
        ? view(metaMorphoReadAbi, 'withdrawQueueLength')
        : view(erc4626ReadAbi, 'convertToAssets', [10n ** 6n])
    checks.push({ contract: `lending vault ${vault.address}`, address: vault.address, needsCode: true, call })
  }
  if (config.utilToken !== null)
    checks.push({
      contract: 'UTIL token',
      address: config.utilToken,
      needsCode: true,
      call: view(erc20Abi, 'decimals'),
    })
  if (config.payments.creditPool !== null)
    checks.push({
      contract: 'UTIL/USDC pool',
      address: config.payments.creditPool,
      needsCode: true,
      call: view(uniswapV3PoolAbi, 'slot0'),
    })
  return checks
}
