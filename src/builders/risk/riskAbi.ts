import { parseAbi } from 'viem'

/**
 * The gTrade v10 diamond functions the perp builders encode and read (protocols.md §1, the v10 ABI in
 * /work/shared/reference/abi/gns-multicollat-diamond.v10.json), typed for viem. `chain/abis/
 * gtradeDiamondReads.json` holds only the trade-list reads of the positions route and is untyped JSON.
 */
export const riskDiamondAbi = parseAbi([
  'struct Trade { address user; uint32 index; uint16 pairIndex; uint24 leverage; bool long; bool isOpen; uint8 collateralIndex; uint8 tradeType; uint120 collateralAmount; uint64 openPrice; uint64 tp; uint64 sl; bool isCounterTrade; uint160 positionSizeToken; uint24 __placeholder; }',
  'struct PendingOrder { Trade trade; address user; uint32 index; bool isOpen; uint8 orderType; uint32 createdBlock; uint16 maxSlippageP; }',
  'struct Feed { address feed1; address feed2; uint8 feedCalculation; uint256 maxDeviationP; }',
  'struct Pair { string from; string to; Feed feed; uint256 spreadP; uint256 groupIndex; uint256 feeIndex; }',
  'struct GroupLiquidationParams { uint40 maxLiqSpreadP; uint40 startLiqThresholdP; uint40 endLiqThresholdP; uint24 startLeverage; uint24 endLeverage; }',
  'struct LiqPriceInput { uint8 collateralIndex; address trader; uint16 pairIndex; uint32 index; uint64 openPrice; bool long; uint256 collateral; uint256 leverage; int256 additionalFeeCollateral; GroupLiquidationParams liquidationParams; uint64 currentPairPrice; bool isCounterTrade; uint256 partialCloseMultiplier; bool beforeOpened; }',
  // trading
  'function openTrade(Trade _trade, uint16 _maxSlippageP, address _referrer)',
  'function closeTradeMarket(uint32 _index, uint64 _expectedPrice)',
  'function updateLeverage(uint32 _index, uint24 _newLeverage)',
  'function increasePositionSize(uint32 _index, uint120 _collateralDelta, uint24 _leverageDelta, uint64 _expectedPrice, uint16 _maxSlippageP)',
  'function decreasePositionSize(uint32 _index, uint120 _collateralDelta, uint24 _leverageDelta, uint64 _expectedPrice)',
  'function updateTp(uint32 _index, uint64 _newTp)',
  'function updateSl(uint32 _index, uint64 _newSl)',
  'function updateOpenOrder(uint32 _index, uint64 _triggerPrice, uint64 _tp, uint64 _sl, uint16 _maxSlippageP)',
  'function cancelOpenOrder(uint32 _index)',
  // views
  'function getTrade(address _trader, uint32 _index) view returns (Trade)',
  'function getPendingOrders(address _user) view returns (PendingOrder[])',
  'function pairs(uint256 _index) view returns (Pair)',
  'function pairMaxLeverage(uint256 _pairIndex) view returns (uint256)',
  'function pairMinLeverage(uint256 _pairIndex) view returns (uint256)',
  'function pairMinPositionSizeUsd(uint256 _pairIndex) view returns (uint256)',
  'function pairTotalPositionSizeFeeP(uint256 _pairIndex) view returns (uint256)',
  'function pairSpreadP(address _trader, uint256 _pairIndex) view returns (uint256)',
  'function getPairLiquidationParams(uint256 _pairIndex) view returns (GroupLiquidationParams)',
  'function getTradeLiquidationPrice(LiqPriceInput _input) view returns (uint256)',
  // the custom errors a bundle can revert with, to decode a simulation revert
  'error WrongLeverage()',
  'error WrongTp()',
  'error WrongSl()',
  'error BelowMin()',
  'error AboveMax()',
  'error NoTrade()',
  'error NoOrder()',
  'error WrongTradeType()',
  'error AlreadyBeingMarketClosed()',
  'error ConflictingPendingOrder(uint8)',
  'error PriceZero()',
  'error MaxSlippageZero()',
  'error PairNotListed()',
  'error InvalidCollateralIndex()',
  'error InsufficientCollateral()',
  'error InvalidIncreasePositionSizeInput()',
  'error InvalidDecreasePositionSizeInput()',
  'error NotImplemented(bytes4 selector)',
])

/** USDC is collateral index 1 on Base (protocols.md §1; Arbitrum's 3 does not apply). */
export const USDC_COLLATERAL_INDEX = 1

/** Trade.tradeType / the body's tradeType. */
export const TRADE_TYPE = { market: 0, limit: 1, stop: 2 } as const
/** PendingOrderType of a queued market close (SDK trade/types). */
export const MARKET_CLOSE_ORDER = 1
