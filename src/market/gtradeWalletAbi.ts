import { parseAbi } from 'viem'

/**
 * The gTrade v10 diamond views the wallet reads use (protocols.md §1, typed for viem): the owner's trade
 * slots (open trades and resting LIMIT/STOP orders, tradeType 0/1/2), their infos and liquidation
 * params, the pair, its fee, and the venue's own liquidation price.
 */
export const gtradeWalletAbi = parseAbi([
  'struct Trade { address user; uint32 index; uint16 pairIndex; uint24 leverage; bool long; bool isOpen; uint8 collateralIndex; uint8 tradeType; uint120 collateralAmount; uint64 openPrice; uint64 tp; uint64 sl; bool isCounterTrade; uint160 positionSizeToken; uint24 __placeholder; }',
  'struct TradeInfo { uint32 createdBlock; uint32 tpLastUpdatedBlock; uint32 slLastUpdatedBlock; uint16 maxSlippageP; uint48 lastOiUpdateTs; uint48 collateralPriceUsd; uint8 contractsVersion; uint32 lastPosIncreaseBlock; uint8 __placeholder; }',
  'struct Feed { address feed1; address feed2; uint8 feedCalculation; uint256 maxDeviationP; }',
  'struct Pair { string from; string to; Feed feed; uint256 spreadP; uint256 groupIndex; uint256 feeIndex; }',
  'struct GroupLiquidationParams { uint40 maxLiqSpreadP; uint40 startLiqThresholdP; uint40 endLiqThresholdP; uint24 startLeverage; uint24 endLeverage; }',
  'struct LiqPriceInput { uint8 collateralIndex; address trader; uint16 pairIndex; uint32 index; uint64 openPrice; bool long; uint256 collateral; uint256 leverage; int256 additionalFeeCollateral; GroupLiquidationParams liquidationParams; uint64 currentPairPrice; bool isCounterTrade; uint256 partialCloseMultiplier; bool beforeOpened; }',
  'function getTrades(address _trader) view returns (Trade[])',
  'function getTradeInfos(address _trader) view returns (TradeInfo[])',
  'function getTradesLiquidationParams(address _trader) view returns (GroupLiquidationParams[])',
  'function pairs(uint256 _index) view returns (Pair)',
  'function pairTotalPositionSizeFeeP(uint256 _pairIndex) view returns (uint256)',
  'function getTradeLiquidationPrice(LiqPriceInput _input) view returns (uint256)',
])
