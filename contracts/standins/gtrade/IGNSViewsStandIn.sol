// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IGNSTypesStandIn} from "./IGNSTypesStandIn.sol";

/// @dev GENERATED from /work/shared/reference/abi/gns-multicollat-diamond.v10.json (gTrade v10 GNSMultiCollatDiamond ABI).
/// Do not edit by hand; test/devnet/standins/gtrade.test.ts checks every selector and event topic against that ABI.
/// View selectors (implemented by GTradeViewsFacetStandIn, reached through the diamond's fallback).
interface IGNSViewsStandIn is IGNSTypesStandIn {
    function facetAddress(bytes4 _functionSelector) external view returns (address facetAddress_);
    function fees(uint256 _index) external view returns (FeeGroup memory);
    function feesCount() external view returns (uint256);
    function getGroupLiquidationParams(uint256 _groupIndex) external view returns (GroupLiquidationParams memory);
    function getPairLiquidationParams(uint256 _pairIndex) external view returns (GroupLiquidationParams memory);
    function groups(uint256 _index) external view returns (Group memory);
    function groupsCount() external view returns (uint256);
    function isPairIndexListed(uint256 _pairIndex) external view returns (bool);
    function pairCustomMaxLeverage(uint256 _pairIndex) external view returns (uint256);
    function pairMaxLeverage(uint256 _pairIndex) external view returns (uint256);
    function pairMinLeverage(uint256 _pairIndex) external view returns (uint256);
    function pairMinPositionSizeUsd(uint256 _pairIndex) external view returns (uint256);
    function pairSpreadP(address _trader, uint256 _pairIndex) external view returns (uint256);
    function pairTotalLiqCollateralFeeP(uint256 _pairIndex) external view returns (uint256);
    function pairTotalPositionSizeFeeP(uint256 _pairIndex) external view returns (uint256);
    function pairs(uint256 _index) external view returns (Pair memory);
    function pairsCount() external view returns (uint256);
    function getCollateral(uint8 _index) external view returns (Collateral memory);
    function getCollateralIndex(address _collateral) external view returns (uint8);
    function getCollaterals() external view returns (Collateral[] memory);
    function getCollateralsCount() external view returns (uint8);
    function getCounters(address _trader, uint8 _type) external view returns (Counter memory);
    function getCurrentContractsVersion() external view returns (uint8);
    function getGToken(uint8 _collateralIndex) external view returns (address);
    function getPendingOrder(Id memory _orderId) external view returns (PendingOrder memory);
    function getPendingOrders(address _user) external view returns (PendingOrder[] memory);
    function getTrade(address _trader, uint32 _index) external view returns (Trade memory);
    function getTradeInfo(address _trader, uint32 _index) external view returns (TradeInfo memory);
    function getTradeInfos(address _trader) external view returns (TradeInfo[] memory);
    function getTradeLiquidationParams(address _trader, uint32 _index) external view returns (GroupLiquidationParams memory);
    function getTraders(uint32 _offset, uint32 _limit) external view returns (address[] memory);
    function getTradersCount() external view returns (uint256);
    function getTrades(address _trader) external view returns (Trade[] memory);
    function getTradesLiquidationParams(address _trader) external view returns (GroupLiquidationParams[] memory);
    function getTradingActivated() external view returns (uint8);
    function isCollateralActive(uint8 _index) external view returns (bool);
    function isCollateralListed(uint8 _index) external view returns (bool);
    function getMarketOrdersTimeoutBlocks() external view returns (uint16);
    function getTradeLiquidationPrice(LiqPriceInput memory _input) external view returns (uint256);
}
