// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {StandInBase} from "../common/StandInBase.sol";
import {IGNSTypesStandIn} from "./IGNSTypesStandIn.sol";

/// @notice Shared storage layout and pricing helpers of the gTrade diamond stand-in and its views facet
/// (the views facet runs through delegatecall from the diamond, like a real EIP-2535 facet).
abstract contract GTradeStorageStandIn is StandInBase, IGNSTypesStandIn {
    using SafeERC20 for IERC20;

    // PendingOrderType (SDK trade/types)
    uint8 internal constant MARKET_OPEN = 0;
    uint8 internal constant MARKET_CLOSE = 1;
    uint8 internal constant LIMIT_OPEN = 2;
    uint8 internal constant STOP_OPEN = 3;
    uint8 internal constant TP_CLOSE = 4;
    uint8 internal constant SL_CLOSE = 5;
    uint8 internal constant LIQ_CLOSE = 6;
    uint8 internal constant UPDATE_LEVERAGE = 7;
    uint8 internal constant MARKET_PARTIAL_OPEN = 8;
    uint8 internal constant MARKET_PARTIAL_CLOSE = 9;

    // CancelReason
    uint8 internal constant CANCEL_NONE = 0;
    uint8 internal constant CANCEL_SLIPPAGE = 3;
    uint8 internal constant CANCEL_NO_TRADE = 9;

    uint8 internal constant COUNTER_TRADE = 0;
    uint8 internal constant COUNTER_PENDING_ORDER = 1;

    uint8 internal constant USDC_COLLATERAL_INDEX = 1;
    uint256 internal constant P_10 = 1e10; // percent precision of "P" values
    uint256 internal constant FEE_DENOM = 1e12; // percent x1e10 -> fraction
    uint256 internal constant LIQ_THRESHOLD_P = 90; // percent of collateral lost at liquidation
    int256 internal constant MAX_PROFIT_P = 900; // percent

    address public collateralToken;
    address public gToken;
    address public viewsFacet;
    mapping(address => bool) public isKeeper;
    mapping(uint256 => uint64) public prices;
    uint256 public vaultBalance;
    uint16 internal _marketOrdersTimeoutBlocks;

    Pair[] internal _pairs;
    Group[] internal _groups;
    FeeGroup[] internal _fees;
    GroupLiquidationParams[] internal _groupLiqParams;
    mapping(uint256 => uint256) internal _pairCustomMaxLeverage;

    mapping(address => mapping(uint32 => Trade)) internal _trades;
    mapping(address => mapping(uint32 => TradeInfo)) internal _tradeInfos;
    mapping(address => mapping(uint32 => PendingOrder)) internal _pendingOrders;
    mapping(address => mapping(uint8 => Counter)) internal _counters;
    mapping(address => mapping(uint32 => bool)) internal _beingMarketClosed;
    address[] internal _traders;
    mapping(address => bool) internal _traderStored;
    /// @dev Selector routing of the diamond fallback; unlisted selectors go to viewsFacet.
    mapping(bytes4 => address) internal _facetOf;

    constructor(address _admin) StandInBase(_admin) {}

    function _isPairListed(uint256 pairIndex) internal view returns (bool) {
        return pairIndex < _pairs.length;
    }

    function _pairMaxLeverage(uint256 pairIndex) internal view returns (uint256) {
        uint256 custom = _pairCustomMaxLeverage[pairIndex];
        return custom > 0 ? custom : _groups[_pairs[pairIndex].groupIndex].maxLeverage;
    }

    function _pairMinLeverage(uint256 pairIndex) internal view returns (uint256) {
        return _groups[_pairs[pairIndex].groupIndex].minLeverage;
    }

    /// @dev 1e18-scaled USD (minPositionSizeUsd is stored x1e3).
    function _pairMinPositionSizeUsd(uint256 pairIndex) internal view returns (uint256) {
        return uint256(_fees[_pairs[pairIndex].feeIndex].minPositionSizeUsd) * 1e15;
    }

    function _pairTotalPositionSizeFeeP(uint256 pairIndex) internal view returns (uint256) {
        return _fees[_pairs[pairIndex].feeIndex].totalPositionSizeFeeP;
    }

    function _pairLiqParams(uint256 pairIndex) internal view returns (GroupLiquidationParams memory) {
        return _groupLiqParams[_pairs[pairIndex].groupIndex];
    }

    function _feeOn(uint16 pairIndex, uint256 positionSizeCollateral) internal view returns (uint256) {
        return positionSizeCollateral * _pairTotalPositionSizeFeeP(pairIndex) / FEE_DENOM;
    }

    function _liqPrice(Trade memory t) internal view returns (uint256) {
        uint256 closingFee = _feeOn(t.pairIndex, uint256(t.collateralAmount) * t.leverage / 1e3);
        return _liqPriceFor(t.openPrice, t.long, t.collateralAmount, t.leverage, int256(closingFee));
    }

    /// @dev SDK getLiquidationPrice without holding fees and closing spread, fixed 90% threshold.
    function _liqPriceFor(uint256 openPrice, bool long, uint256 collateral, uint256 leverage, int256 totalFees)
        internal
        pure
        returns (uint256)
    {
        if (collateral == 0 || leverage == 0) return 0;
        int256 budget = int256(collateral * LIQ_THRESHOLD_P / 100) - totalFees;
        uint256 distance = budget > 0 ? openPrice * uint256(budget) * 1e3 / collateral / leverage : 0;
        if (long) return openPrice > distance ? openPrice - distance : 0;
        return openPrice + distance;
    }

    /// @notice Stand-in only: a keeper call found the order's trigger not hit at the current price.
    error TriggerNotHit();

    event PriceSet(uint256 indexed pairIndex, uint64 price);
    event KeeperSet(address indexed keeper, bool allowed);
    event VaultFunded(address indexed from, uint256 amount);

    modifier onlyKeeper() {
        if (!isKeeper[msg.sender] && msg.sender != admin) revert NotAuthorized();
        _;
    }

    // ------------------------------------------------------------------ internals: validation & storage

    function _validateOpen(Trade memory t, uint16 maxSlippageP) internal view {
        if (t.collateralIndex != USDC_COLLATERAL_INDEX) revert InvalidCollateralIndex();
        if (!_isPairListed(t.pairIndex)) revert PairNotListed();
        if (t.tradeType > 2) revert WrongTradeType();
        if (t.openPrice == 0) revert PriceZero();
        if (maxSlippageP == 0) revert MaxSlippageZero();
        if (t.leverage < _pairMinLeverage(t.pairIndex) || t.leverage > _pairMaxLeverage(t.pairIndex)) {
            revert WrongLeverage();
        }
        // USDC ~ $1: position size in 1e18 USD = collateral (6 dp) * 1e12 * leverage / 1e3.
        uint256 sizeUsd = uint256(t.collateralAmount) * 1e12 * t.leverage / 1e3;
        if (sizeUsd < _pairMinPositionSizeUsd(t.pairIndex)) revert BelowMin();
        _validateTpSl(t.long, t.openPrice, t.tp, t.sl);
    }

    function _validateTpSl(bool long, uint64 openPrice, uint64 tp, uint64 sl) internal pure {
        if (tp != 0 && (long ? tp <= openPrice : tp >= openPrice)) revert WrongTp();
        if (sl != 0 && (long ? sl >= openPrice : sl <= openPrice)) revert WrongSl();
    }

    function _openTradeOf(address user, uint32 index) internal view returns (Trade memory t) {
        t = _trades[user][index];
        if (!t.isOpen) revert NoTrade();
    }

    function _priceOf(uint256 pairIndex) internal view returns (uint64 price) {
        price = prices[pairIndex];
        if (price == 0) revert PriceZero();
    }

    function _storeTrader(address user) internal {
        if (!_traderStored[user]) {
            _traderStored[user] = true;
            _traders.push(user);
        }
    }

    function _storePendingOrder(Trade memory t, uint8 orderType, uint16 maxSlippageP) internal returns (uint32 index) {
        Counter storage c = _counters[msg.sender][COUNTER_PENDING_ORDER];
        index = c.currentIndex;
        c.currentIndex++;
        c.openCount++;
        PendingOrder storage o = _pendingOrders[msg.sender][index];
        o.trade = t;
        o.user = msg.sender;
        o.index = index;
        o.isOpen = true;
        o.orderType = orderType;
        o.createdBlock = uint32(block.number);
        o.maxSlippageP = maxSlippageP;
        emit PendingOrderStored(o);
    }

    function _closePendingOrder(Id memory orderId) internal {
        _pendingOrders[orderId.user][orderId.index].isOpen = false;
        _counters[orderId.user][COUNTER_PENDING_ORDER].openCount--;
        emit PendingOrderClosed(orderId);
    }

    function _storeTrade(Trade memory t, uint16 maxSlippageP) internal returns (uint32 index) {
        Counter storage c = _counters[t.user][COUNTER_TRADE];
        index = c.currentIndex;
        c.currentIndex++;
        c.openCount++;
        t.index = index;
        _trades[t.user][index] = t;
        TradeInfo memory info;
        info.createdBlock = uint32(block.number);
        info.maxSlippageP = maxSlippageP;
        info.lastOiUpdateTs = uint48(block.timestamp);
        info.collateralPriceUsd = 1e8;
        info.contractsVersion = 2;
        info.lastPosIncreaseBlock = uint32(block.number);
        _tradeInfos[t.user][index] = info;
        emit TradeStored(t.user, index, t, info, _pairLiqParams(t.pairIndex));
    }

    function _refundableCollateral(PendingOrder storage o) internal view returns (uint256) {
        if (o.orderType == MARKET_OPEN || o.orderType == MARKET_PARTIAL_OPEN) return o.trade.collateralAmount;
        if (o.orderType == UPDATE_LEVERAGE) {
            // leverage decrease pulled the collateral delta up front
            return o.trade.leverage < _trades[o.user][o.trade.index].leverage ? o.trade.collateralAmount : 0;
        }
        return 0;
    }

    // ------------------------------------------------------------------ internals: pricing & pnl

    function _spreadPrice(uint16 pairIndex, uint64 price, bool long, bool open) internal view returns (uint64) {
        uint256 halfSpread = uint256(price) * _pairs[pairIndex].spreadP / 2 / FEE_DENOM;
        // Trader always pays the spread: long opens / short closes buy above, the others sell below.
        return long == open ? uint64(price + halfSpread) : uint64(price - halfSpread);
    }

    /// @return pnl raw pnl in collateral for `sizeCollateral` of the position closed at `exitPrice` (capped +900%).
    function _pnl(Trade memory t, uint256 sizeCollateral, uint256 exitPrice) internal pure returns (int256 pnl) {
        int256 diff = t.long ? int256(exitPrice) - int256(uint256(t.openPrice)) : int256(uint256(t.openPrice)) - int256(exitPrice);
        pnl = int256(sizeCollateral) * diff / int256(uint256(t.openPrice));
        int256 maxProfit = int256(sizeCollateral) * 1e3 / int256(uint256(t.leverage)) * MAX_PROFIT_P / 100;
        if (pnl > maxProfit) pnl = maxProfit;
    }

    function _tokens(uint256 sizeCollateral, uint256 price) internal pure returns (uint160) {
        // position size in pair base tokens, 1e18: USD(1e18) / price(1e10) * 1e10
        return uint160(sizeCollateral * 1e12 * 1e10 / price);
    }

    function _priceImpact(uint160 sizeToken, uint64 oraclePrice, uint64 execPrice, uint16 pairIndex)
        internal
        view
        returns (TradePriceImpact memory pi)
    {
        pi.positionSizeToken = sizeToken;
        pi.fixedSpreadP = int256(_pairs[pairIndex].spreadP / 2);
        pi.totalPriceImpactP = int256(oraclePrice == execPrice ? 0 : _pairs[pairIndex].spreadP / 2);
        pi.priceAfterImpact = execPrice;
    }

    /// @dev Settles a full close: releases escrow, pays `value` to the trader from escrow + vault, marks closed.
    function _settleClose(Trade memory t, uint256 exitPrice, bool liquidation)
        internal
        returns (int256 percentProfit, uint256 value)
    {
        uint256 size = uint256(t.collateralAmount) * t.leverage / 1e3;
        int256 pnl = _pnl(t, size, exitPrice);
        if (!liquidation) {
            int256 v = int256(uint256(t.collateralAmount)) + pnl - int256(_feeOn(t.pairIndex, size));
            value = v > 0 ? uint256(v) : 0;
        }
        percentProfit = pnl * int256(100 * P_10) / int256(uint256(t.collateralAmount));
        _payFromEscrow(t.user, t.collateralAmount, value);
        _trades[t.user][t.index].isOpen = false;
        _counters[t.user][COUNTER_TRADE].openCount--;
        _beingMarketClosed[t.user][t.index] = false;
        emit TradeClosed(t.user, t.index, pnl > 0);
    }

    /// @dev `escrow` of the trader's collateral is released into the vault, then `value` is paid out of it.
    function _payFromEscrow(address to, uint256 escrow, uint256 value) internal {
        uint256 available = vaultBalance + escrow;
        if (value > available) revert InsufficientBalance();
        vaultBalance = available - value;
        if (value > 0) IERC20(collateralToken).safeTransfer(to, value);
    }

    // ------------------------------------------------------------------ internals: executions

    function _executeMarketOpen(Id memory orderId, PendingOrder memory o, uint64 price) internal {
        Trade memory t = o.trade;
        uint64 exec = _spreadPrice(t.pairIndex, price, t.long, true);
        uint256 maxDev = uint256(t.openPrice) * o.maxSlippageP / 1e5;
        if (t.long ? exec > t.openPrice + maxDev : exec + maxDev < t.openPrice) {
            IERC20(collateralToken).safeTransfer(t.user, t.collateralAmount);
            emit MarketOpenCanceled(orderId, t.user, t.pairIndex, CANCEL_SLIPPAGE, t.collateralAmount);
            return;
        }
        uint256 fee = _feeOn(t.pairIndex, uint256(t.collateralAmount) * t.leverage / 1e3);
        vaultBalance += fee;
        t.collateralAmount -= uint120(fee);
        t.openPrice = exec;
        t.positionSizeToken = _tokens(uint256(t.collateralAmount) * t.leverage / 1e3, exec);
        uint32 index = _storeTrade(t, o.maxSlippageP);
        t.index = index;
        _emitMarketExecuted(
            MarketExecutedData(
                orderId, t, true, price, exec, _liqPrice(t), _priceImpact(t.positionSizeToken, price, exec, t.pairIndex), 0, 0, 1e8
            )
        );
    }

    function _executeMarketClose(Id memory orderId, PendingOrder memory o, uint64 price) internal {
        Trade memory t = _trades[o.user][o.trade.index];
        if (!t.isOpen) {
            emit MarketCloseCanceled(orderId, o.user, o.trade.pairIndex, o.trade.index, CANCEL_NO_TRADE);
            return;
        }
        uint64 exec = _spreadPrice(t.pairIndex, price, t.long, false);
        uint256 liq = _liqPrice(t);
        (int256 percentProfit, uint256 value) = _settleClose(t, exec, false);
        _emitMarketExecuted(
            MarketExecutedData(
                orderId,
                t,
                false,
                price,
                exec,
                liq,
                _priceImpact(t.positionSizeToken, price, exec, t.pairIndex),
                percentProfit,
                value,
                1e8
            )
        );
    }

    function _executeTriggerOpen(Trade memory t, uint8 orderType, uint64 price) internal {
        uint256 fee = _feeOn(t.pairIndex, uint256(t.collateralAmount) * t.leverage / 1e3);
        vaultBalance += fee;
        Trade storage s = _trades[t.user][t.index];
        s.collateralAmount = t.collateralAmount - uint120(fee);
        s.tradeType = 0;
        s.positionSizeToken = _tokens(uint256(s.collateralAmount) * t.leverage / 1e3, t.openPrice);
        TradeInfo storage info = _tradeInfos[t.user][t.index];
        info.createdBlock = uint32(block.number);
        info.lastPosIncreaseBlock = uint32(block.number);
        info.lastOiUpdateTs = uint48(block.timestamp);
        t = s;
        _emitLimitExecuted(
            t.index,
            LimitExecutedData(
                Id(t.user, t.index),
                t,
                msg.sender,
                orderType,
                price,
                t.openPrice,
                _liqPrice(t),
                _priceImpact(t.positionSizeToken, price, t.openPrice, t.pairIndex),
                0,
                0,
                1e8,
                true
            )
        );
    }

    function _closeTriggerPrice(Trade memory t, uint8 orderType, uint64 price) internal view returns (uint64) {
        if (orderType == TP_CLOSE) {
            if (t.tp == 0 || (t.long ? price < t.tp : price > t.tp)) revert TriggerNotHit();
            return t.tp;
        }
        if (orderType == SL_CLOSE) {
            if (t.sl == 0 || (t.long ? price > t.sl : price < t.sl)) revert TriggerNotHit();
            return t.sl;
        }
        uint256 liq = _liqPrice(t);
        if (t.long ? price > liq : price < liq) revert TriggerNotHit();
        return price;
    }

    function _executeTriggerClose(Trade memory t, uint8 orderType, uint64 price, uint64 execPrice) internal {
        uint256 liq = _liqPrice(t);
        (int256 percentProfit, uint256 value) = _settleClose(t, execPrice, orderType == LIQ_CLOSE);
        _emitLimitExecuted(
            0,
            LimitExecutedData(
                Id(t.user, t.index),
                t,
                msg.sender,
                orderType,
                price,
                execPrice,
                liq,
                _priceImpact(t.positionSizeToken, price, execPrice, t.pairIndex),
                percentProfit,
                value,
                1e8,
                true
            )
        );
    }

    function _executeUpdateLeverage(Id memory orderId, PendingOrder memory o, uint64 price) internal {
        Trade storage s = _trades[o.user][o.trade.index];
        UpdateLeverageValues memory v;
        v.newLeverage = o.trade.leverage;
        bool isIncrease = o.trade.leverage > s.leverage;
        if (!s.isOpen) {
            if (!isIncrease) IERC20(collateralToken).safeTransfer(o.user, o.trade.collateralAmount);
            emit LeverageUpdateExecuted(
                orderId, isIncrease, CANCEL_NO_TRADE, USDC_COLLATERAL_INDEX, o.user, o.trade.pairIndex, o.trade.index,
                price, o.trade.collateralAmount, v
            );
            return;
        }
        v.existingLiqPrice = _liqPrice(s);
        if (isIncrease) {
            s.collateralAmount -= o.trade.collateralAmount;
            IERC20(collateralToken).safeTransfer(o.user, o.trade.collateralAmount);
        } else {
            s.collateralAmount += o.trade.collateralAmount;
        }
        s.leverage = o.trade.leverage;
        v.newCollateralAmount = s.collateralAmount;
        v.newLiqPrice = _liqPrice(s);
        v.newEffectiveLeverage = s.leverage;
        emit LeverageUpdateExecuted(
            orderId, isIncrease, CANCEL_NONE, USDC_COLLATERAL_INDEX, o.user, o.trade.pairIndex, o.trade.index, price,
            o.trade.collateralAmount, v
        );
    }

    function _executeIncrease(Id memory orderId, PendingOrder memory o, uint64 price) internal {
        Trade storage s = _trades[o.user][o.trade.index];
        IncreasePositionSizeValues memory v;
        uint64 exec = _spreadPrice(o.trade.pairIndex, price, o.trade.long, true);
        v.priceImpact = _priceImpact(0, price, exec, o.trade.pairIndex);
        uint256 maxDev = uint256(o.trade.openPrice) * o.maxSlippageP / 1e5;
        bool slippage = o.trade.long ? exec > o.trade.openPrice + maxDev : exec + maxDev < o.trade.openPrice;
        if (!s.isOpen || slippage) {
            IERC20(collateralToken).safeTransfer(o.user, o.trade.collateralAmount);
            _emitIncrease(orderId, o, s.isOpen ? CANCEL_SLIPPAGE : CANCEL_NO_TRADE, price, v);
            return;
        }
        v.existingPositionSizeCollateral = uint256(s.collateralAmount) * s.leverage / 1e3;
        v.existingLiqPrice = _liqPrice(s);
        v.positionSizeCollateralDelta = uint256(o.trade.collateralAmount) * o.trade.leverage / 1e3;
        v.openingFeesCollateral = _feeOn(o.trade.pairIndex, v.positionSizeCollateralDelta);
        vaultBalance += v.openingFeesCollateral;
        v.newPositionSizeCollateral = v.existingPositionSizeCollateral + v.positionSizeCollateralDelta;
        v.newCollateralAmount = s.collateralAmount + o.trade.collateralAmount - v.openingFeesCollateral;
        v.newLeverage = v.newPositionSizeCollateral * 1e3 / v.newCollateralAmount;
        if (v.newLeverage > _pairMaxLeverage(o.trade.pairIndex)) revert WrongLeverage();
        uint160 newTokens = s.positionSizeToken + _tokens(v.positionSizeCollateralDelta, exec);
        v.newOpenPrice = v.newPositionSizeCollateral * 1e22 / newTokens;
        v.priceImpact.positionSizeToken = newTokens - s.positionSizeToken;
        s.collateralAmount = uint120(v.newCollateralAmount);
        s.leverage = uint24(v.newLeverage);
        s.openPrice = uint64(v.newOpenPrice);
        s.positionSizeToken = newTokens;
        _tradeInfos[o.user][o.trade.index].lastPosIncreaseBlock = uint32(block.number);
        v.newLiqPrice = _liqPrice(s);
        v.newEffectiveLeverage = v.newLeverage;
        _emitIncrease(orderId, o, CANCEL_NONE, price, v);
    }

    function _emitIncrease(
        Id memory orderId,
        PendingOrder memory o,
        uint8 cancelReason,
        uint64 price,
        IncreasePositionSizeValues memory v
    ) internal {
        emit PositionSizeIncreaseExecuted(
            orderId,
            cancelReason,
            USDC_COLLATERAL_INDEX,
            o.user,
            o.trade.pairIndex,
            o.trade.index,
            o.trade.long,
            price,
            1e8,
            o.trade.collateralAmount,
            o.trade.leverage,
            v
        );
    }

    function _executeDecrease(Id memory orderId, PendingOrder memory o, uint64 price) internal {
        Trade memory t = _trades[o.user][o.trade.index];
        DecreasePositionSizeValues memory v;
        if (!t.isOpen) {
            _emitDecrease(orderId, o, CANCEL_NO_TRADE, price, v);
            return;
        }
        uint64 exec = _spreadPrice(t.pairIndex, price, t.long, false);
        v.priceImpact = _priceImpact(0, price, exec, t.pairIndex);
        v.isLeverageUpdate = o.trade.leverage > 0;
        v.existingPositionSizeCollateral = uint256(t.collateralAmount) * t.leverage / 1e3;
        v.existingLiqPrice = _liqPrice(t);
        v.positionSizeCollateralDelta = v.isLeverageUpdate
            ? uint256(t.collateralAmount) * o.trade.leverage / 1e3
            : uint256(o.trade.collateralAmount) * t.leverage / 1e3;
        v.partialRawPnlCollateral = _pnl(t, v.positionSizeCollateralDelta, exec);
        v.closingFeeCollateral = _feeOn(t.pairIndex, v.positionSizeCollateralDelta);
        v.partialNetPnlCollateral = v.partialRawPnlCollateral - int256(v.closingFeeCollateral);
        v.existingPnlPercent = _pnl(t, v.existingPositionSizeCollateral, exec) * int256(100 * P_10)
            / int256(uint256(t.collateralAmount));
        _applyDecrease(t, o, v);
        v.newLiqPrice = _liqPrice(_trades[o.user][o.trade.index]);
        _emitDecrease(orderId, o, CANCEL_NONE, price, v);
    }

    function _applyDecrease(Trade memory t, PendingOrder memory o, DecreasePositionSizeValues memory v) internal {
        Trade storage s = _trades[o.user][o.trade.index];
        int256 send;
        uint256 released; // collateral leaving the trade's escrow
        if (v.isLeverageUpdate) {
            s.leverage = t.leverage - o.trade.leverage;
            if (v.partialNetPnlCollateral >= 0) {
                send = v.partialNetPnlCollateral;
            } else {
                released = uint256(-v.partialNetPnlCollateral);
                if (released >= t.collateralAmount) revert InsufficientCollateral();
                s.collateralAmount = uint120(t.collateralAmount - released);
            }
        } else {
            released = o.trade.collateralAmount;
            s.collateralAmount = t.collateralAmount - o.trade.collateralAmount;
            send = int256(released) + v.partialNetPnlCollateral;
            if (send < 0) send = 0;
        }
        s.positionSizeToken = uint160(
            uint256(t.positionSizeToken) * (v.existingPositionSizeCollateral - v.positionSizeCollateralDelta)
                / v.existingPositionSizeCollateral
        );
        _payFromEscrow(o.user, released, uint256(send));
        v.pnlToRealizeCollateral = v.partialNetPnlCollateral;
        v.collateralSentToTrader = send;
        v.newCollateralAmount = s.collateralAmount;
        v.newLeverage = s.leverage;
    }

    function _emitDecrease(
        Id memory orderId,
        PendingOrder memory o,
        uint8 cancelReason,
        uint64 price,
        DecreasePositionSizeValues memory v
    ) internal {
        emit PositionSizeDecreaseExecuted(
            orderId,
            cancelReason,
            USDC_COLLATERAL_INDEX,
            o.user,
            o.trade.pairIndex,
            o.trade.index,
            o.trade.long,
            price,
            1e8,
            o.trade.collateralAmount,
            o.trade.leverage,
            v
        );
    }

    // ------------------------------------------------------------------ internals: wide events
    // MarketExecuted / LimitExecuted have too many arguments for the legacy (non-viaIR) pipeline's stack, so
    // their data is ABI-encoded from a static struct whose encoding equals the event's non-indexed data, then
    // logged with the real event topic (checked against the reference ABI in the tests).

    struct MarketExecutedData {
        Id orderId;
        Trade t;
        bool open;
        uint256 oraclePrice;
        uint256 marketPrice;
        uint256 liqPrice;
        TradePriceImpact priceImpact;
        int256 percentProfit;
        uint256 amountSentToTrader;
        uint256 collateralPriceUsd;
    }

    struct LimitExecutedData {
        Id orderId;
        Trade t;
        address triggerCaller;
        uint8 orderType;
        uint256 oraclePrice;
        uint256 marketPrice;
        uint256 liqPrice;
        TradePriceImpact priceImpact;
        int256 percentProfit;
        uint256 amountSentToTrader;
        uint256 collateralPriceUsd;
        bool exactExecution;
    }

    function _emitMarketExecuted(MarketExecutedData memory d) internal {
        bytes memory data = abi.encode(d);
        bytes32 topic0 = MarketExecuted.selector;
        bytes32 user = bytes32(uint256(uint160(d.t.user)));
        bytes32 index = bytes32(uint256(d.t.index));
        assembly ("memory-safe") {
            log3(add(data, 32), mload(data), topic0, user, index)
        }
    }

    function _emitLimitExecuted(uint32 limitIndex, LimitExecutedData memory d) internal {
        bytes memory data = abi.encode(d);
        bytes32 topic0 = LimitExecuted.selector;
        bytes32 user = bytes32(uint256(uint160(d.t.user)));
        bytes32 index = bytes32(uint256(d.t.index));
        bytes32 limit = bytes32(uint256(limitIndex));
        assembly ("memory-safe") {
            log4(add(data, 32), mload(data), topic0, user, index, limit)
        }
    }
}
