// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @dev GENERATED from /work/shared/reference/abi/morpho-midnight.json (Morpho Midnight on Base): the subset of
/// functions the devnet stand-in implements, with the real structs and custom errors. Do not edit by hand.
/// marketState(bytes32) is served by MidnightStandIn's fallback (13 return values exceed the legacy stack).
interface IMidnightStandIn {
    struct Market {
        uint256 chainId;
        address midnight;
        address loanToken;
        CollateralParams[] collateralParams;
        uint256 maturity;
        uint256 rcfThreshold;
        address enterGate;
        address liquidatorGate;
    }

    struct CollateralParams {
        address token;
        uint256 lltv;
        uint256 liquidationCursor;
        address oracle;
    }

    struct Offer {
        Market market;
        bool buy;
        address maker;
        uint256 start;
        uint256 expiry;
        uint256 tick;
        bytes32 group;
        address callback;
        bytes callbackData;
        address receiverIfMakerIsSeller;
        address ratifier;
        bool reduceOnly;
        uint128 maxUnits;
        uint128 maxAssets;
        uint256 continuousFeeCap;
    }

    error AlreadyConsumed();
    error BuyerGatedFromIncreasingCredit();
    error CannotIncreaseDebtPostMaturity();
    error CollateralParamsNotSorted();
    error ConsumedAssets();
    error ConsumedUnits();
    error ContinuousFeeAboveMax();
    error ContinuousFeeAboveOfferCap();
    error FeeNotMultipleOfFeeCbp();
    error InconsistentInput();
    error InvalidChainId();
    error InvalidFeeIndex();
    error InvalidLiquidationCursor();
    error InvalidLltv();
    error InvalidMaxLif();
    error InvalidMidnight();
    error InvalidOfferCaps();
    error InvalidTickSpacing();
    error LiquidationCursorNotEnabled();
    error LiquidatorGatedFromLiquidating();
    error LltvNotEnabled();
    error MakerCreditOrDebtIncreased();
    error MarketLossFactorMaxedOut();
    error MarketNotCreated();
    error MaturityTooFar();
    error MaxLifTooHigh();
    error NoCollateralParams();
    error NotBorrower();
    error NotLiquidatable();
    error OfferExpired();
    error OfferNotStarted();
    error OnlyConfigurator();
    error OnlyFeeClaimer();
    error OnlyFeeSetter();
    error OnlyTickSpacingSetter();
    error RatifierFailed();
    error RatifierUnauthorized();
    error RecoveryCloseFactorConditionsViolated();
    error SelfTake();
    error SellerGatedFromIncreasingDebt();
    error SellerIsLiquidatable();
    error SettlementFeeAboveMax();
    error TakerUnauthorized();
    error TickNotAccessible();
    error TooManyActivatedCollaterals();
    error TooManyCollateralParams();
    error Unauthorized();
    error UnhealthyBorrower();
    error UnusedReceiverMustBeZero();
    error WrongBuyCallbackReturnValue();
    error WrongFlashLoanCallbackReturnValue();
    error WrongLiquidateCallbackReturnValue();
    error WrongRepayCallbackReturnValue();
    error WrongSellCallbackReturnValue();

    function claimableSettlementFee(address token) external view returns (uint256);
    function collateral(bytes32 id, address user, uint256 index) external view returns (uint128);
    function collateralBitmap(bytes32 id, address user) external view returns (uint128);
    function consumed(address user, bytes32 group) external view returns (uint128);
    function continuousFee(bytes32 id) external view returns (uint32);
    function continuousFeeCredit(bytes32 id) external view returns (uint128);
    function credit(bytes32 id, address user) external view returns (uint128);
    function debt(bytes32 id, address user) external view returns (uint128);
    function defaultContinuousFee(address loanToken) external view returns (uint32);
    function defaultSettlementFeeCbp(address loanToken, uint256 index) external view returns (uint16);
    function isAuthorized(address authorizer, address authorized) external view returns (bool);
    function isHealthy(Market memory market, bytes32 id, address borrower) external view returns (bool);
    function lastAccrual(bytes32 id, address user) external view returns (uint128);
    function lastLossFactor(bytes32 id, address user) external view returns (uint128);
    function liquidationLocked(bytes32 id, address user) external view returns (bool);
    function lossFactor(bytes32 id) external view returns (uint128);
    function multicall(bytes[] memory calls) external;
    function pendingFee(bytes32 id, address user) external view returns (uint128);
    function position(bytes32 id, address user) external view returns (uint128 credit, uint128 pendingFee, uint128 lastLossFactor, uint128 lastAccrual, uint128 debt, uint128 collateralBitmap);
    function repay(Market memory market, uint256 units, address onBehalf, address callback, bytes memory data) external;
    function setConsumed(bytes32 group, uint128 amount, address onBehalf) external;
    function setIsAuthorized(address authorized, bool newIsAuthorized, address onBehalf) external;
    function settlementFee(bytes32 id, uint256 timeToMaturity) external view returns (uint256);
    function settlementFeeCbps(bytes32 id) external view returns (uint16[7] memory);
    function supplyCollateral(Market memory market, uint256 collateralIndex, uint256 assets, address onBehalf) external;
    function take(Offer memory offer, bytes memory ratifierData, uint256 units, address taker, address receiverIfTakerIsSeller, address takerCallback, bytes memory takerCallbackData) external returns (uint256 buyerAssets, uint256 sellerAssets);
    function tickSpacing(bytes32 id) external view returns (uint8);
    function toMarket(bytes32 id) external view returns (Market memory);
    function totalUnits(bytes32 id) external view returns (uint128);
    function touchMarket(Market memory market) external returns (bytes32);
    function updatePositionView(Market memory market, bytes32 id, address user) external view returns (uint128 newCredit, uint128 newPendingFee, uint128 accruedFee);
    function withdraw(Market memory market, uint256 units, address onBehalf, address receiver) external;
    function withdrawCollateral(Market memory market, uint256 collateralIndex, uint256 assets, address onBehalf, address receiver) external;
    function withdrawable(bytes32 id) external view returns (uint128);
}
