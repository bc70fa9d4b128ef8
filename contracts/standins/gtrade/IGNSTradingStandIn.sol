// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IGNSTypesStandIn} from "./IGNSTypesStandIn.sol";

/// @dev GENERATED from /work/shared/reference/abi/gns-multicollat-diamond.v10.json (gTrade v10 GNSMultiCollatDiamond ABI).
/// Do not edit by hand; test/devnet/standins/gtrade.test.ts checks every selector and event topic against that ABI.
/// Trading selectors (implemented by GTradeDiamondStandIn).
interface IGNSTradingStandIn is IGNSTypesStandIn {
    function cancelOpenOrder(uint32 _index) external;
    function cancelOrderAfterTimeout(uint32 _orderIndex) external;
    function closeTradeMarket(uint32 _index, uint64 _expectedPrice) external;
    function decreasePositionSize(uint32 _index, uint120 _collateralDelta, uint24 _leverageDelta, uint64 _expectedPrice) external;
    function increasePositionSize(uint32 _index, uint120 _collateralDelta, uint24 _leverageDelta, uint64 _expectedPrice, uint16 _maxSlippageP) external;
    function openTrade(Trade memory _trade, uint16 _maxSlippageP, address _referrer) external;
    function updateLeverage(uint32 _index, uint24 _newLeverage) external;
    function updateOpenOrder(uint32 _index, uint64 _triggerPrice, uint64 _tp, uint64 _sl, uint16 _maxSlippageP) external;
    function updateSl(uint32 _index, uint64 _newSl) external;
    function updateTp(uint32 _index, uint64 _newTp) external;
}
