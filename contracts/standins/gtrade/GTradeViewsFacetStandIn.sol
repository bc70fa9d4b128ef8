// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {GTradeStorageStandIn} from "./GTradeStorageStandIn.sol";
import {IGNSTradingStandIn} from "./IGNSTradingStandIn.sol";
import {IGNSViewsStandIn} from "./IGNSViewsStandIn.sol";

/// @title gTrade v10 views facet stand-in (devnet only)
/// @notice The view selectors of the GNSMultiCollatDiamond, reached through GTradeDiamondStandIn's fallback with
/// delegatecall (so they read the diamond's storage). Unknown selectors revert NotImplemented(msg.sig).
contract GTradeViewsFacetStandIn is GTradeStorageStandIn, IGNSViewsStandIn {
    constructor() GTradeStorageStandIn(address(0)) {}


    function getTrades(address _trader) external view returns (Trade[] memory out) {
        uint32 n = _counters[_trader][COUNTER_TRADE].currentIndex;
        out = new Trade[](_counters[_trader][COUNTER_TRADE].openCount);
        uint256 k;
        for (uint32 i = 0; i < n; i++) {
            if (_trades[_trader][i].isOpen) out[k++] = _trades[_trader][i];
        }
    }

    function getTrade(address _trader, uint32 _index) external view returns (Trade memory) {
        return _trades[_trader][_index];
    }

    function getTradeInfos(address _trader) external view returns (TradeInfo[] memory out) {
        uint32 n = _counters[_trader][COUNTER_TRADE].currentIndex;
        out = new TradeInfo[](_counters[_trader][COUNTER_TRADE].openCount);
        uint256 k;
        for (uint32 i = 0; i < n; i++) {
            if (_trades[_trader][i].isOpen) out[k++] = _tradeInfos[_trader][i];
        }
    }

    function getTradeInfo(address _trader, uint32 _index) external view returns (TradeInfo memory) {
        return _tradeInfos[_trader][_index];
    }

    function getPendingOrders(address _user) external view returns (PendingOrder[] memory out) {
        uint32 n = _counters[_user][COUNTER_PENDING_ORDER].currentIndex;
        out = new PendingOrder[](_counters[_user][COUNTER_PENDING_ORDER].openCount);
        uint256 k;
        for (uint32 i = 0; i < n; i++) {
            if (_pendingOrders[_user][i].isOpen) out[k++] = _pendingOrders[_user][i];
        }
    }

    function getPendingOrder(Id memory _orderId) external view returns (PendingOrder memory) {
        return _pendingOrders[_orderId.user][_orderId.index];
    }

    function getCounters(address _trader, uint8 _type) external view returns (Counter memory) {
        return _counters[_trader][_type];
    }

    /// @dev Stand-in semantics: returns traders[_offset .. _limit) (end index exclusive; 0 = up to the end).
    function getTraders(uint32 _offset, uint32 _limit) external view returns (address[] memory out) {
        uint256 end = _limit == 0 || _limit > _traders.length ? _traders.length : _limit;
        if (_offset >= end) return new address[](0);
        out = new address[](end - _offset);
        for (uint256 i = _offset; i < end; i++) {
            out[i - _offset] = _traders[i];
        }
    }

    function getTradersCount() external view returns (uint256) {
        return _traders.length;
    }

    function pairs(uint256 _index) external view returns (Pair memory) {
        return _pairs[_index];
    }

    function groups(uint256 _index) external view returns (Group memory) {
        return _groups[_index];
    }

    function fees(uint256 _index) external view returns (FeeGroup memory) {
        return _fees[_index];
    }

    function pairsCount() external view returns (uint256) {
        return _pairs.length;
    }

    function groupsCount() external view returns (uint256) {
        return _groups.length;
    }

    function feesCount() external view returns (uint256) {
        return _fees.length;
    }

    function isPairIndexListed(uint256 _pairIndex) external view returns (bool) {
        return _isPairListed(_pairIndex);
    }

    function pairMaxLeverage(uint256 _pairIndex) external view returns (uint256) {
        return _pairMaxLeverage(_pairIndex);
    }

    function pairMinLeverage(uint256 _pairIndex) external view returns (uint256) {
        return _pairMinLeverage(_pairIndex);
    }

    function pairCustomMaxLeverage(uint256 _pairIndex) external view returns (uint256) {
        return _pairCustomMaxLeverage[_pairIndex];
    }

    function pairSpreadP(address, uint256 _pairIndex) external view returns (uint256) {
        return _pairs[_pairIndex].spreadP;
    }

    /// @dev 1e18-scaled USD (minPositionSizeUsd is stored x1e3).
    function pairMinPositionSizeUsd(uint256 _pairIndex) external view returns (uint256) {
        return _pairMinPositionSizeUsd(_pairIndex);
    }

    function pairTotalPositionSizeFeeP(uint256 _pairIndex) external view returns (uint256) {
        return _pairTotalPositionSizeFeeP(_pairIndex);
    }

    function pairTotalLiqCollateralFeeP(uint256 _pairIndex) external view returns (uint256) {
        return _fees[_pairs[_pairIndex].feeIndex].totalLiqCollateralFeeP;
    }

    function getCollaterals() external view returns (Collateral[] memory out) {
        out = new Collateral[](1);
        out[0] = getCollateral(USDC_COLLATERAL_INDEX);
    }

    function getCollateral(uint8 _index) public view returns (Collateral memory c) {
        if (_index != USDC_COLLATERAL_INDEX) return c;
        c = Collateral(collateralToken, true, 0, 1e6, 1e12);
    }

    function getCollateralIndex(address _collateral) external view returns (uint8) {
        return _collateral == collateralToken ? USDC_COLLATERAL_INDEX : 0;
    }

    function getCollateralsCount() external pure returns (uint8) {
        return 1;
    }

    function isCollateralActive(uint8 _index) external pure returns (bool) {
        return _index == USDC_COLLATERAL_INDEX;
    }

    function isCollateralListed(uint8 _index) external pure returns (bool) {
        return _index == USDC_COLLATERAL_INDEX;
    }

    function getGToken(uint8 _collateralIndex) external view returns (address) {
        return _collateralIndex == USDC_COLLATERAL_INDEX ? gToken : address(0);
    }

    function getMarketOrdersTimeoutBlocks() external view returns (uint16) {
        return _marketOrdersTimeoutBlocks;
    }

    function getTradeLiquidationParams(address _trader, uint32 _index)
        external
        view
        returns (GroupLiquidationParams memory)
    {
        return _pairLiqParams(_trades[_trader][_index].pairIndex);
    }

    function getTradesLiquidationParams(address _trader)
        external
        view
        returns (GroupLiquidationParams[] memory out)
    {
        uint32 n = _counters[_trader][COUNTER_TRADE].currentIndex;
        out = new GroupLiquidationParams[](_counters[_trader][COUNTER_TRADE].openCount);
        uint256 k;
        for (uint32 i = 0; i < n; i++) {
            if (_trades[_trader][i].isOpen) out[k++] = _pairLiqParams(_trades[_trader][i].pairIndex);
        }
    }

    function getPairLiquidationParams(uint256 _pairIndex) external view returns (GroupLiquidationParams memory) {
        return _pairLiqParams(_pairIndex);
    }

    function getGroupLiquidationParams(uint256 _groupIndex) external view returns (GroupLiquidationParams memory) {
        return _groupLiqParams[_groupIndex];
    }

    function getCurrentContractsVersion() external pure returns (uint8) {
        return 2; // ContractsVersion.V10
    }

    function getTradingActivated() external pure returns (uint8) {
        return 0; // TradingActivated.ACTIVATED
    }

    /// @dev Simplified (see contract doc): 90% threshold, closing fee on the position size, no holding fees/spread.
    function getTradeLiquidationPrice(LiqPriceInput memory _input) external view returns (uint256) {
        uint256 fee = _input.collateral * _input.leverage / 1e3 * _pairTotalPositionSizeFeeP(_input.pairIndex) / FEE_DENOM;
        int256 totalFees = int256(fee) + _input.additionalFeeCollateral;
        return _liqPriceFor(_input.openPrice, _input.long, _input.collateral, _input.leverage, totalFees);
    }

    /// @dev Diamond loupe subset: every implemented selector maps to the diamond itself (address(this) under
    /// delegatecall), everything else to address(0).
    function facetAddress(bytes4 _functionSelector) external view returns (address) {
        bytes4 s = _functionSelector;
        bool trading = s == IGNSTradingStandIn.openTrade.selector || s == IGNSTradingStandIn.closeTradeMarket.selector
            || s == IGNSTradingStandIn.updateLeverage.selector || s == IGNSTradingStandIn.increasePositionSize.selector
            || s == IGNSTradingStandIn.decreasePositionSize.selector || s == IGNSTradingStandIn.updateTp.selector
            || s == IGNSTradingStandIn.updateSl.selector || s == IGNSTradingStandIn.updateOpenOrder.selector
            || s == IGNSTradingStandIn.cancelOpenOrder.selector || s == IGNSTradingStandIn.cancelOrderAfterTimeout.selector;
        (bool ok, bytes memory ret) = viewsFacet.staticcall(abi.encodeWithSelector(this.implementsView.selector, s));
        bool isView = ok && abi.decode(ret, (bool));
        return trading || isView ? address(this) : address(0);
    }

    /// @notice Stand-in helper for facetAddress: whether this facet implements `selector`.
    function implementsView(bytes4 selector) external pure returns (bool) {
        bytes4[39] memory s = [
            IGNSViewsStandIn.getTrades.selector,
            IGNSViewsStandIn.getTrade.selector,
            IGNSViewsStandIn.getTradeInfos.selector,
            IGNSViewsStandIn.getTradeInfo.selector,
            IGNSViewsStandIn.getPendingOrders.selector,
            IGNSViewsStandIn.getPendingOrder.selector,
            IGNSViewsStandIn.getCounters.selector,
            IGNSViewsStandIn.getTraders.selector,
            IGNSViewsStandIn.getTradersCount.selector,
            IGNSViewsStandIn.pairs.selector,
            IGNSViewsStandIn.groups.selector,
            IGNSViewsStandIn.fees.selector,
            IGNSViewsStandIn.pairsCount.selector,
            IGNSViewsStandIn.groupsCount.selector,
            IGNSViewsStandIn.feesCount.selector,
            IGNSViewsStandIn.pairMaxLeverage.selector,
            IGNSViewsStandIn.pairMinLeverage.selector,
            IGNSViewsStandIn.pairCustomMaxLeverage.selector,
            IGNSViewsStandIn.pairSpreadP.selector,
            IGNSViewsStandIn.pairMinPositionSizeUsd.selector,
            IGNSViewsStandIn.pairTotalPositionSizeFeeP.selector,
            IGNSViewsStandIn.pairTotalLiqCollateralFeeP.selector,
            IGNSViewsStandIn.isPairIndexListed.selector,
            IGNSViewsStandIn.getCollaterals.selector,
            IGNSViewsStandIn.getCollateral.selector,
            IGNSViewsStandIn.getCollateralIndex.selector,
            IGNSViewsStandIn.getCollateralsCount.selector,
            IGNSViewsStandIn.isCollateralActive.selector,
            IGNSViewsStandIn.isCollateralListed.selector,
            IGNSViewsStandIn.getGToken.selector,
            IGNSViewsStandIn.getMarketOrdersTimeoutBlocks.selector,
            IGNSViewsStandIn.getTradeLiquidationParams.selector,
            IGNSViewsStandIn.getTradesLiquidationParams.selector,
            IGNSViewsStandIn.getPairLiquidationParams.selector,
            IGNSViewsStandIn.getGroupLiquidationParams.selector,
            IGNSViewsStandIn.getCurrentContractsVersion.selector,
            IGNSViewsStandIn.getTradingActivated.selector,
            IGNSViewsStandIn.getTradeLiquidationPrice.selector,
            IGNSViewsStandIn.facetAddress.selector
        ];
        for (uint256 i = 0; i < s.length; i++) {
            if (s[i] == selector) return true;
        }
        return false;
    }
}
