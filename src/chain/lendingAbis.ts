import { parseAbi } from 'viem'

/**
 * Read-only ABIs of the yield sources the earn and loan reads list (protocols.md §2–3): ERC-4626 vaults,
 * MetaMorpho's fee and market queue, Morpho Blue IRMs, the Aave v3 pool and oracle, and Multicall3's block
 * getters (so a multicall reports the block it read).
 */
export const erc4626ReadAbi = parseAbi([
  'function asset() view returns (address)',
  'function name() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalAssets() view returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
])

/** ERC-20 metadata and supply (also aTokens: totalSupply includes the interest accrued up to the block). */
export const erc20ReadAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
])

/** MetaMorpho v1.0/v1.1: fee is a WAD share of the interest; the withdraw queue lists every enabled market. */
export const metaMorphoReadAbi = parseAbi([
  'function fee() view returns (uint96)',
  'function withdrawQueueLength() view returns (uint256)',
  'function withdrawQueue(uint256 index) view returns (bytes32)',
])

/** Morpho Blue IRM (AdaptiveCurveIrm and any other): per-second borrow rate, WAD, for a market state. */
export const morphoIrmAbi = parseAbi([
  'struct MarketParams { address loanToken; address collateralToken; address oracle; address irm; uint256 lltv; }',
  'struct Market { uint128 totalSupplyAssets; uint128 totalSupplyShares; uint128 totalBorrowAssets; uint128 totalBorrowShares; uint128 lastUpdate; uint128 fee; }',
  'function borrowRateView(MarketParams marketParams, Market market) view returns (uint256)',
])

/**
 * Aave v3 Pool.getReserveData: v3.0's ReserveData, which v3.2+ keep returning as ReserveDataLegacy (same
 * layout). Rates are ray (1e27) APRs.
 */
export const aavePoolReadAbi = parseAbi([
  'function getReserveData(address asset) view returns ((uint256 configuration, uint128 liquidityIndex, uint128 currentLiquidityRate, uint128 variableBorrowIndex, uint128 currentVariableBorrowRate, uint128 currentStableBorrowRate, uint40 lastUpdateTimestamp, uint16 id, address aTokenAddress, address stableDebtTokenAddress, address variableDebtTokenAddress, address interestRateStrategyAddress, uint128 accruedToTreasury, uint128 unbacked, uint128 isolationModeTotalDebt))',
])

/** AaveOracle: asset prices in the base currency (address(0) = USD), scaled by BASE_CURRENCY_UNIT. */
export const aaveOracleAbi = parseAbi([
  'function BASE_CURRENCY() view returns (address)',
  'function BASE_CURRENCY_UNIT() view returns (uint256)',
  'function getAssetPrice(address asset) view returns (uint256)',
])

export const multicall3BlockAbi = parseAbi([
  'function getBlockNumber() view returns (uint256 blockNumber)',
  'function getCurrentBlockTimestamp() view returns (uint256 timestamp)',
])
