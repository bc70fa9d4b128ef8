// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {GTradeStorageStandIn} from "./GTradeStorageStandIn.sol";

/// @title gTrade v10 keeper/executor facet stand-in (devnet only)
/// @notice Stands in for the oracle DON callbacks (openTradeMarketCallback, executeTriggerOpenOrderCallback, ...):
/// reached through GTradeDiamondStandIn's fallback with delegatecall. Keeper-only; prices come from setPrice.
contract GTradeExecutorFacetStandIn is GTradeStorageStandIn {
    constructor() GTradeStorageStandIn(address(0)) {}

    /// @notice Fills a pending market order (open, close, leverage update, partial open/close) at the stored price.
    function executeMarketOrder(address user, uint32 orderIndex) external onlyKeeper {
        PendingOrder memory o = _pendingOrders[user][orderIndex];
        if (!o.isOpen) revert PendingOrderNotOpen();
        uint64 price = _priceOf(o.trade.pairIndex);
        Id memory orderId = Id(user, orderIndex);
        _closePendingOrder(orderId);
        if (o.orderType == MARKET_OPEN) _executeMarketOpen(orderId, o, price);
        else if (o.orderType == MARKET_CLOSE) _executeMarketClose(orderId, o, price);
        else if (o.orderType == UPDATE_LEVERAGE) _executeUpdateLeverage(orderId, o, price);
        else if (o.orderType == MARKET_PARTIAL_OPEN) _executeIncrease(orderId, o, price);
        else if (o.orderType == MARKET_PARTIAL_CLOSE) _executeDecrease(orderId, o, price);
        else revert WrongOrderType();
    }

    /// @notice Triggers a resting order at the stored price: LIMIT_OPEN/STOP_OPEN for tradeType 1/2, or TP_CLOSE,
    /// SL_CLOSE, LIQ_CLOSE for an open trade. Reverts TriggerNotHit when the price has not crossed.
    function executeTrigger(address user, uint32 index, uint8 orderType) external onlyKeeper {
        Trade memory t = _openTradeOf(user, index);
        uint64 price = _priceOf(t.pairIndex);
        if (orderType == LIMIT_OPEN || orderType == STOP_OPEN) {
            if (t.tradeType != (orderType == LIMIT_OPEN ? 1 : 2)) revert WrongOrderType();
            bool hit = (orderType == LIMIT_OPEN) == t.long ? price <= t.openPrice : price >= t.openPrice;
            if (!hit) revert TriggerNotHit();
            _executeTriggerOpen(t, orderType, price);
        } else if (orderType == TP_CLOSE || orderType == SL_CLOSE || orderType == LIQ_CLOSE) {
            if (t.tradeType != 0) revert WrongOrderType();
            uint64 execPrice = _closeTriggerPrice(t, orderType, price);
            _executeTriggerClose(t, orderType, price, execPrice);
        } else {
            revert WrongOrderType();
        }
    }

    /// @notice Which trigger (if any) is hit for a trade at the stored price: 0 = none, else the PendingOrderType.
    function triggerableOrderType(address user, uint32 index) external view returns (uint8) {
        Trade memory t = _trades[user][index];
        uint64 price = prices[t.pairIndex];
        if (!t.isOpen || price == 0) return 0;
        if (t.tradeType == 1) return (t.long ? price <= t.openPrice : price >= t.openPrice) ? LIMIT_OPEN : 0;
        if (t.tradeType == 2) return (t.long ? price >= t.openPrice : price <= t.openPrice) ? STOP_OPEN : 0;
        uint256 liq = _liqPrice(t);
        if (t.long ? price <= liq : price >= liq) return LIQ_CLOSE;
        if (t.sl != 0 && (t.long ? price <= t.sl : price >= t.sl)) return SL_CLOSE;
        if (t.tp != 0 && (t.long ? price >= t.tp : price <= t.tp)) return TP_CLOSE;
        return 0;
    }
}
