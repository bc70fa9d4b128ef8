// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @dev GENERATED from /work/shared/reference/abi/gns-multicollat-diamond.v10.json (gTrade v10 GNSMultiCollatDiamond ABI).
/// Do not edit by hand; test/devnet/standins/gtrade.test.ts checks every selector and event topic against that ABI.
/// Structs, events and custom errors of the diamond.
interface IGNSTypesStandIn {
    struct FeeGroup {
        uint40 totalPositionSizeFeeP;
        uint40 totalLiqCollateralFeeP;
        uint40 oraclePositionSizeFeeP;
        uint32 minPositionSizeUsd;
        uint104 __placeholder;
    }

    struct GroupLiquidationParams {
        uint40 maxLiqSpreadP;
        uint40 startLiqThresholdP;
        uint40 endLiqThresholdP;
        uint24 startLeverage;
        uint24 endLeverage;
    }

    struct Group {
        string name;
        bytes32 job;
        uint256 minLeverage;
        uint256 maxLeverage;
    }

    struct Pair {
        string from;
        string to;
        Feed feed;
        uint256 spreadP;
        uint256 groupIndex;
        uint256 feeIndex;
    }

    struct Feed {
        address feed1;
        address feed2;
        uint8 feedCalculation;
        uint256 maxDeviationP;
    }

    struct Collateral {
        address collateral;
        bool isActive;
        uint88 __placeholder;
        uint128 precision;
        uint128 precisionDelta;
    }

    struct Counter {
        uint32 currentIndex;
        uint32 openCount;
        uint192 __placeholder;
    }

    struct Id {
        address user;
        uint32 index;
    }

    struct PendingOrder {
        Trade trade;
        address user;
        uint32 index;
        bool isOpen;
        uint8 orderType;
        uint32 createdBlock;
        uint16 maxSlippageP;
    }

    struct Trade {
        address user;
        uint32 index;
        uint16 pairIndex;
        uint24 leverage;
        bool long;
        bool isOpen;
        uint8 collateralIndex;
        uint8 tradeType;
        uint120 collateralAmount;
        uint64 openPrice;
        uint64 tp;
        uint64 sl;
        bool isCounterTrade;
        uint160 positionSizeToken;
        uint24 __placeholder;
    }

    struct TradeInfo {
        uint32 createdBlock;
        uint32 tpLastUpdatedBlock;
        uint32 slLastUpdatedBlock;
        uint16 maxSlippageP;
        uint48 lastOiUpdateTs;
        uint48 collateralPriceUsd;
        uint8 contractsVersion;
        uint32 lastPosIncreaseBlock;
        uint8 __placeholder;
    }

    struct LiqPriceInput {
        uint8 collateralIndex;
        address trader;
        uint16 pairIndex;
        uint32 index;
        uint64 openPrice;
        bool long;
        uint256 collateral;
        uint256 leverage;
        int256 additionalFeeCollateral;
        GroupLiquidationParams liquidationParams;
        uint64 currentPairPrice;
        bool isCounterTrade;
        uint256 partialCloseMultiplier;
        bool beforeOpened;
    }

    struct UpdateLeverageValues {
        uint256 newLeverage;
        uint256 newCollateralAmount;
        uint256 existingLiqPrice;
        uint256 newLiqPrice;
        uint256 govFeeCollateral;
        uint256 newEffectiveLeverage;
        uint256 totalTradeAvailableCollateralInDiamond;
        uint256 availableCollateralInDiamond;
    }

    struct DecreasePositionSizeValues {
        bool isLeverageUpdate;
        uint256 positionSizeCollateralDelta;
        uint256 existingPositionSizeCollateral;
        uint256 existingLiqPrice;
        uint256 newLiqPrice;
        TradePriceImpact priceImpact;
        int256 existingPnlPercent;
        int256 partialRawPnlCollateral;
        int256 partialNetPnlCollateral;
        int256 pnlToRealizeCollateral;
        uint256 closingFeeCollateral;
        uint256 totalAvailableCollateralInDiamond;
        int256 availableCollateralInDiamond;
        int256 collateralSentToTrader;
        uint120 newCollateralAmount;
        uint24 newLeverage;
    }

    struct TradePriceImpact {
        uint256 positionSizeToken;
        int256 fixedSpreadP;
        int256 cumulVolPriceImpactP;
        int256 skewPriceImpactP;
        int256 totalPriceImpactP;
        uint64 priceAfterImpact;
    }

    struct IncreasePositionSizeValues {
        uint256 positionSizeCollateralDelta;
        uint256 existingPositionSizeCollateral;
        uint256 newPositionSizeCollateral;
        uint256 newCollateralAmount;
        uint256 newLeverage;
        TradePriceImpact priceImpact;
        int256 existingPnlCollateral;
        uint256 oldPosSizePlusPnlCollateral;
        uint256 newOpenPrice;
        uint256 openingFeesCollateral;
        uint256 existingLiqPrice;
        uint256 newLiqPrice;
        bool isCounterTradeValidated;
        uint256 exceedingPositionSizeCollateral;
        uint256 counterTradeCollateralToReturn;
        uint256 newEffectiveLeverage;
    }

    event PendingOrderClosed(Id orderId);
    event PendingOrderStored(PendingOrder pendingOrder);
    event TradeClosed(address indexed user, uint32 indexed index, bool isPnlPositive);
    event TradeSlUpdated(address indexed user, uint32 indexed index, uint64 newSl);
    event TradeStored(address indexed user, uint32 indexed index, Trade trade, TradeInfo tradeInfo, GroupLiquidationParams liquidationParams);
    event TradeTpUpdated(address indexed user, uint32 indexed index, uint64 newTp);
    event CollateralReturnedAfterTimeout(Id pendingOrderId, uint8 indexed collateralIndex, address indexed trader, uint256 collateralAmount);
    event LeverageUpdateExecuted(Id orderId, bool isIncrease, uint8 cancelReason, uint8 indexed collateralIndex, address indexed trader, uint256 pairIndex, uint256 indexed index, uint256 oraclePrice, uint256 collateralDelta, UpdateLeverageValues values);
    event LeverageUpdateInitiated(Id orderId, address indexed trader, uint256 indexed pairIndex, uint256 indexed index, bool isIncrease, uint256 newLeverage);
    event MarketOrderInitiated(Id orderId, address indexed trader, uint16 indexed pairIndex, bool open);
    event OpenLimitCanceled(address indexed trader, uint16 indexed pairIndex, uint32 indexed index);
    event OpenLimitUpdated(address indexed trader, uint16 indexed pairIndex, uint32 indexed index, uint64 newPrice, uint64 newTp, uint64 newSl, uint64 maxSlippageP);
    event OpenOrderPlaced(address indexed trader, uint16 indexed pairIndex, uint32 indexed index);
    event PositionSizeDecreaseExecuted(Id orderId, uint8 cancelReason, uint8 indexed collateralIndex, address indexed trader, uint256 pairIndex, uint256 indexed index, bool long, uint256 oraclePrice, uint256 collateralPriceUsd, uint256 collateralDelta, uint256 leverageDelta, DecreasePositionSizeValues values);
    event PositionSizeIncreaseExecuted(Id orderId, uint8 cancelReason, uint8 indexed collateralIndex, address indexed trader, uint256 pairIndex, uint256 indexed index, bool long, uint256 oraclePrice, uint256 collateralPriceUsd, uint256 collateralDelta, uint256 leverageDelta, IncreasePositionSizeValues values);
    event PositionSizeUpdateInitiated(Id orderId, address indexed trader, uint256 indexed pairIndex, uint256 indexed index, bool isIncrease, uint256 collateralDelta, uint256 leverageDelta);
    event LimitExecuted(Id orderId, address indexed user, uint32 indexed index, uint32 indexed limitIndex, Trade t, address triggerCaller, uint8 orderType, uint256 oraclePrice, uint256 marketPrice, uint256 liqPrice, TradePriceImpact priceImpact, int256 percentProfit, uint256 amountSentToTrader, uint256 collateralPriceUsd, bool exactExecution);
    event MarketCloseCanceled(Id orderId, address indexed trader, uint256 indexed pairIndex, uint256 indexed index, uint8 cancelReason);
    event MarketExecuted(Id orderId, address indexed user, uint32 indexed index, Trade t, bool open, uint256 oraclePrice, uint256 marketPrice, uint256 liqPrice, TradePriceImpact priceImpact, int256 percentProfit, uint256 amountSentToTrader, uint256 collateralPriceUsd);
    event MarketOpenCanceled(Id orderId, address indexed trader, uint256 indexed pairIndex, uint8 cancelReason, uint256 collateralReturned);

    error AboveMax();
    error AlreadyExists();
    error BelowMin();
    error BlockOrder();
    error DoesntExist();
    error InitError();
    error InitializationFunctionReverted(address _initializationContractAddress, bytes _calldata);
    error InsufficientBalance();
    error InvalidAddress();
    error InvalidAddresses();
    error InvalidAmount();
    error InvalidCollateralIndex();
    error InvalidFacetCutAction();
    error InvalidInputLength();
    error NotAllowed();
    error NotAuthorized();
    error NotContract();
    error NotFound();
    error Overflow();
    error Paused();
    error UnsupportedChain();
    error WrongAccess();
    error WrongIndex();
    error WrongLength();
    error WrongOrder();
    error WrongOrderType();
    error WrongParams();
    error WrongTradeType();
    error ZeroAddress();
    error ZeroValue();
    error EndLeverageTooHigh();
    error EndLiqThresholdTooLow();
    error FeeNotListed();
    error GroupNotListed();
    error MaxLiqSpreadPTooHigh();
    error PairAlreadyListed();
    error PairNotListed();
    error StartLeverageTooLow();
    error StartLiqThresholdTooHigh();
    error WrongFees();
    error WrongLeverages();
    error WrongLiqParamsLeverages();
    error WrongLiqParamsThresholds();
    error AllyNotActive();
    error AlreadyActive();
    error AlreadyInactive();
    error NoPendingRewards();
    error PointsOverflow();
    error StakingCooldownActive();
    error WrongFeeTier();
    error DepthBandsAboveMax();
    error DepthBandsIncomplete();
    error WrongDepthBandsOrder();
    error WrongWindowsCount();
    error WrongWindowsDuration();
    error CollateralAlreadyActive();
    error CollateralAlreadyDisabled();
    error MaxSlippageZero();
    error MissingCollaterals();
    error TradeInfoCollateralPriceUsdZero();
    error TradeOpenPriceZero();
    error TradePairNotListed();
    error TradePositionSizeZero();
    error TradeSlInvalid();
    error TradeTpInvalid();
    error NoPendingTriggerRewards();
    error TimeoutBlocksZero();
    error AlreadyBeingMarketClosed();
    error CollateralNotActive();
    error ConflictingPendingOrder(uint8 );
    error DelegateNotApproved();
    error DelegatedActionNotAllowed();
    error InsufficientCollateral();
    error InvalidDecreasePositionSizeInput();
    error InvalidIncreasePositionSizeInput();
    error NewPositionSizeSmaller();
    error NoOrder();
    error NoSl();
    error NoTp();
    error NoTrade();
    error NotWrappedNativeToken();
    error NotYourOrder();
    error PendingTrigger();
    error PriceImpactTooHigh();
    error PriceZero();
    error ReentrancyGuardReentrantCall();
    error WaitTimeout();
    error WrongFromBlock();
    error WrongLeverage();
    error WrongSl();
    error WrongTp();
    error PendingOrderNotOpen();
    error BorrowingWrongExponent();
    error BorrowingZeroGroup();
    error DuplicateOrUnsortedPairIndices();
    error ExpiryTooFar();
    error FromBlockMismatch();
    error InvalidCandle();
    error InvalidCurrentPrice();
    error InvalidExpiryTimestamp();
    error InvalidPoolType();
    error InvalidSignature();
    error LookbackMismatch();
    error MinAnswersNotReached();
    error OracleAlreadyListed();
    error PairAndCurrentPriceLengthMismatch();
    error PairIndexMismatchBetweenSigners();
    error PairLengthMismatchBetweenSigners();
    error RequestAlreadyPending();
    error SourceNotOracleOfRequest();
    error TransferAndCallToOracleFailed();
    error WrongCollateralUsdDecimals();
    error WrongSignaturesCount();
    error WrongSignerIdOrder();
    error InvalidShareSum();
}
