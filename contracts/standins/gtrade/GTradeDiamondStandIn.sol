// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {GTradeStorageStandIn} from "./GTradeStorageStandIn.sol";
import {IGNSTradingStandIn} from "./IGNSTradingStandIn.sol";
import {GTradeExecutorFacetStandIn} from "./GTradeExecutorFacetStandIn.sol";

/// @title gTrade v10 GNSMultiCollatDiamond stand-in (devnet only)
/// @notice One contract etched at the Base diamond address 0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb that implements
/// the v10 trading selectors with the real ABI (15-field Trade struct, openTrade = 0x5bfcc4f8), real events and real
/// custom errors. Two-phase like the real protocol: market actions create pending orders that a keeper fills; LIMIT
/// and STOP orders rest as trades with tradeType 1/2 until a keeper triggers them.
/// @dev Units: prices 1e10, leverage 1e3, slippage percent x1e3 (1000 = 1%), fee/spread "P" values percent x1e10,
/// collateral in token decimals (USDC, 6 dp, collateralIndex 1 like Base).
/// Simplifications (documented deviations):
/// - Execution price = oracle price (set by admin/keeper via setPrice) +/- half the pair spreadP, against the trader.
///   No price impact, skew, funding or borrowing fees, no OI caps, no referral/gov/trigger fee split.
/// - Fees: totalPositionSizeFeeP of the pair's fee group, charged on open (deducted from collateral) and on close.
///   Fees and trader losses go to the pre-funded vault balance; profits are paid from it. Profit capped at +900%.
/// - Liquidation price: SDK formula without holding fees and closing spread, fixed 90% threshold:
///   distance = openPrice * (collateral * 0.9 - closingFee) / collateral / leverage;
///   long: openPrice - distance (floored at 0), short: openPrice + distance. Liquidation pays the trader nothing.
/// - LIMIT/STOP opens and TP/SL closes execute exactly at the trigger price (exactExecution = true).
/// - Market closes have no slippage check; closes are executed at oracle price minus half spread.
/// - No trading delegation, native collateral, counter trades or referrals (the referrer argument is ignored).
contract GTradeDiamondStandIn is GTradeStorageStandIn, IGNSTradingStandIn {
    using SafeERC20 for IERC20;

    /// @notice Stand-in only: a keeper call found the order's trigger not hit at the current price.
    constructor(address _admin, address _collateral, address _gToken, address _viewsFacet, address _executorFacet)
        GTradeStorageStandIn(_admin)
    {
        collateralToken = _collateral;
        gToken = _gToken;
        viewsFacet = _viewsFacet;
        _marketOrdersTimeoutBlocks = 30;
        _facetOf[GTradeExecutorFacetStandIn.executeMarketOrder.selector] = _executorFacet;
        _facetOf[GTradeExecutorFacetStandIn.executeTrigger.selector] = _executorFacet;
        _facetOf[GTradeExecutorFacetStandIn.triggerableOrderType.selector] = _executorFacet;
    }

    /// @dev Like a diamond: keeper selectors are delegated to the executor facet and the remaining ones to the views
    /// facet, whose own fallback
    /// reverts NotImplemented(msg.sig).
    fallback() external payable override {
        address facet = _facetOf[msg.sig];
        if (facet == address(0)) facet = viewsFacet;
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), facet, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 { revert(0, returndatasize()) }
            default { return(0, returndatasize()) }
        }
    }

    // ------------------------------------------------------------------ admin (stand-in only)

    function setKeeper(address keeper, bool allowed) external onlyAdmin {
        isKeeper[keeper] = allowed;
        emit KeeperSet(keeper, allowed);
    }

    /// @notice Sets the oracle price of a pair (1e10). Admin or keeper.
    function setPrice(uint256 pairIndex, uint64 price) public onlyKeeper {
        if (price == 0) revert PriceZero();
        prices[pairIndex] = price;
        emit PriceSet(pairIndex, price);
    }

    function addGroup(Group memory g, GroupLiquidationParams memory liq) external onlyAdmin {
        _groups.push(g);
        _groupLiqParams.push(liq);
    }

    function addFee(FeeGroup memory f) external onlyAdmin {
        _fees.push(f);
    }

    function addPair(Pair memory p) external onlyAdmin {
        if (p.groupIndex >= _groups.length) revert GroupNotListed();
        if (p.feeIndex >= _fees.length) revert FeeNotListed();
        _pairs.push(p);
    }

    function setMarketOrdersTimeoutBlocks(uint16 blocks) external onlyAdmin {
        _marketOrdersTimeoutBlocks = blocks;
    }

    /// @notice Pre-funds the vault that pays trader profits (pulls collateral with transferFrom).
    function fundVault(uint256 amount) external {
        IERC20(collateralToken).safeTransferFrom(msg.sender, address(this), amount);
        vaultBalance += amount;
        emit VaultFunded(msg.sender, amount);
    }

    // ------------------------------------------------------------------ trading (real selectors)

    function openTrade(Trade memory _trade, uint16 _maxSlippageP, address) external {
        _trade.user = msg.sender;
        _trade.isOpen = true;
        _trade.isCounterTrade = false;
        _validateOpen(_trade, _maxSlippageP);
        IERC20(collateralToken).safeTransferFrom(msg.sender, address(this), _trade.collateralAmount);
        _storeTrader(msg.sender);

        if (_trade.tradeType == 0) {
            _trade.index = 0;
            _trade.positionSizeToken = 0;
            uint32 orderIndex = _storePendingOrder(_trade, MARKET_OPEN, _maxSlippageP);
            emit MarketOrderInitiated(Id(msg.sender, orderIndex), msg.sender, _trade.pairIndex, true);
        } else {
            _trade.positionSizeToken = 0;
            uint32 index = _storeTrade(_trade, _maxSlippageP);
            emit OpenOrderPlaced(msg.sender, _trade.pairIndex, index);
        }
    }

    function closeTradeMarket(uint32 _index, uint64) external {
        Trade memory t = _openTradeOf(msg.sender, _index);
        if (t.tradeType != 0) revert WrongTradeType();
        if (_beingMarketClosed[msg.sender][_index]) revert AlreadyBeingMarketClosed();
        _beingMarketClosed[msg.sender][_index] = true;
        uint32 orderIndex = _storePendingOrder(t, MARKET_CLOSE, _tradeInfos[msg.sender][_index].maxSlippageP);
        emit MarketOrderInitiated(Id(msg.sender, orderIndex), msg.sender, t.pairIndex, false);
    }

    function updateLeverage(uint32 _index, uint24 _newLeverage) external {
        Trade memory t = _openTradeOf(msg.sender, _index);
        if (t.tradeType != 0) revert WrongTradeType();
        if (
            _newLeverage == t.leverage || _newLeverage < _pairMinLeverage(t.pairIndex)
                || _newLeverage > _pairMaxLeverage(t.pairIndex)
        ) revert WrongLeverage();
        uint256 newCollateral = uint256(t.collateralAmount) * t.leverage / _newLeverage;
        bool isIncrease = _newLeverage > t.leverage;
        if (!isIncrease) {
            uint256 delta = newCollateral - t.collateralAmount;
            IERC20(collateralToken).safeTransferFrom(msg.sender, address(this), delta);
            t.collateralAmount = uint120(delta);
        } else {
            t.collateralAmount = uint120(t.collateralAmount - newCollateral);
        }
        t.leverage = _newLeverage;
        uint32 orderIndex = _storePendingOrder(t, UPDATE_LEVERAGE, 0);
        emit LeverageUpdateInitiated(Id(msg.sender, orderIndex), msg.sender, t.pairIndex, _index, isIncrease, _newLeverage);
    }

    function increasePositionSize(
        uint32 _index,
        uint120 _collateralDelta,
        uint24 _leverageDelta,
        uint64 _expectedPrice,
        uint16 _maxSlippageP
    ) external {
        Trade memory t = _openTradeOf(msg.sender, _index);
        if (t.tradeType != 0) revert WrongTradeType();
        if (_collateralDelta == 0 || _leverageDelta == 0 || _expectedPrice == 0) {
            revert InvalidIncreasePositionSizeInput();
        }
        if (_maxSlippageP == 0) revert MaxSlippageZero();
        IERC20(collateralToken).safeTransferFrom(msg.sender, address(this), _collateralDelta);
        t.collateralAmount = _collateralDelta;
        t.leverage = _leverageDelta;
        t.openPrice = _expectedPrice;
        uint32 orderIndex = _storePendingOrder(t, MARKET_PARTIAL_OPEN, _maxSlippageP);
        emit PositionSizeUpdateInitiated(
            Id(msg.sender, orderIndex), msg.sender, t.pairIndex, _index, true, _collateralDelta, _leverageDelta
        );
    }

    function decreasePositionSize(uint32 _index, uint120 _collateralDelta, uint24 _leverageDelta, uint64 _expectedPrice)
        external
    {
        Trade memory t = _openTradeOf(msg.sender, _index);
        if (t.tradeType != 0) revert WrongTradeType();
        if (
            (_collateralDelta == 0) == (_leverageDelta == 0) || _collateralDelta >= t.collateralAmount
                || _leverageDelta >= t.leverage
        ) revert InvalidDecreasePositionSizeInput();
        t.collateralAmount = _collateralDelta;
        t.leverage = _leverageDelta;
        t.openPrice = _expectedPrice;
        uint32 orderIndex = _storePendingOrder(t, MARKET_PARTIAL_CLOSE, 0);
        emit PositionSizeUpdateInitiated(
            Id(msg.sender, orderIndex), msg.sender, t.pairIndex, _index, false, _collateralDelta, _leverageDelta
        );
    }

    function updateTp(uint32 _index, uint64 _newTp) external {
        Trade storage t = _trades[msg.sender][_index];
        if (!t.isOpen) revert NoTrade();
        if (_newTp != 0 && (t.long ? _newTp <= t.openPrice : _newTp >= t.openPrice)) revert WrongTp();
        t.tp = _newTp;
        _tradeInfos[msg.sender][_index].tpLastUpdatedBlock = uint32(block.number);
        emit TradeTpUpdated(msg.sender, _index, _newTp);
    }

    function updateSl(uint32 _index, uint64 _newSl) external {
        Trade storage t = _trades[msg.sender][_index];
        if (!t.isOpen) revert NoTrade();
        if (_newSl != 0 && (t.long ? _newSl >= t.openPrice : _newSl <= t.openPrice)) revert WrongSl();
        t.sl = _newSl;
        _tradeInfos[msg.sender][_index].slLastUpdatedBlock = uint32(block.number);
        emit TradeSlUpdated(msg.sender, _index, _newSl);
    }

    function updateOpenOrder(uint32 _index, uint64 _triggerPrice, uint64 _tp, uint64 _sl, uint16 _maxSlippageP)
        external
    {
        Trade storage t = _trades[msg.sender][_index];
        if (!t.isOpen) revert NoTrade();
        if (t.tradeType == 0) revert WrongTradeType();
        if (_triggerPrice == 0) revert PriceZero();
        if (_maxSlippageP == 0) revert MaxSlippageZero();
        _validateTpSl(t.long, _triggerPrice, _tp, _sl);
        t.openPrice = _triggerPrice;
        t.tp = _tp;
        t.sl = _sl;
        _tradeInfos[msg.sender][_index].maxSlippageP = _maxSlippageP;
        emit OpenLimitUpdated(msg.sender, t.pairIndex, _index, _triggerPrice, _tp, _sl, _maxSlippageP);
    }

    function cancelOpenOrder(uint32 _index) external {
        Trade storage t = _trades[msg.sender][_index];
        if (!t.isOpen) revert NoTrade();
        if (t.tradeType == 0) revert WrongTradeType();
        uint256 amount = t.collateralAmount;
        uint16 pairIndex = t.pairIndex;
        t.isOpen = false;
        _counters[msg.sender][COUNTER_TRADE].openCount--;
        IERC20(collateralToken).safeTransfer(msg.sender, amount);
        emit OpenLimitCanceled(msg.sender, pairIndex, _index);
    }

    function cancelOrderAfterTimeout(uint32 _orderIndex) external {
        PendingOrder storage o = _pendingOrders[msg.sender][_orderIndex];
        if (!o.isOpen) revert PendingOrderNotOpen();
        if (block.number < uint256(o.createdBlock) + _marketOrdersTimeoutBlocks) revert WaitTimeout();
        Id memory orderId = Id(msg.sender, _orderIndex);
        uint256 refund = _refundableCollateral(o);
        uint8 orderType = o.orderType;
        Trade memory t = o.trade;
        _closePendingOrder(orderId);
        if (orderType == MARKET_CLOSE) {
            _beingMarketClosed[msg.sender][t.index] = false;
            emit MarketCloseCanceled(orderId, msg.sender, t.pairIndex, t.index, CANCEL_NONE);
        }
        if (refund > 0) IERC20(collateralToken).safeTransfer(msg.sender, refund);
        emit CollateralReturnedAfterTimeout(orderId, USDC_COLLATERAL_INDEX, msg.sender, refund);
    }
}
