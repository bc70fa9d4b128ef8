// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {StandInBase} from "../common/StandInBase.sol";
import {IMidnightStandIn} from "./IMidnightStandIn.sol";
import {MidnightTickMath} from "./MidnightTickMath.sol";

interface IMidnightRatifier {
    function isRatified(IMidnightStandIn.Offer memory offer, bytes memory ratifierData) external view returns (bytes32);
}

/// @dev Morpho-style oracle: price of 1 collateral asset in loan assets, scaled by 1e36 (with decimals).
interface IMidnightOracle {
    function price() external view returns (uint256);
}

interface IMidnightEnterGate {
    function canIncreaseCredit(address user) external view returns (bool);
    function canIncreaseDebt(address user) external view returns (bool);
}

/// @title Morpho Midnight stand-in (devnet only), etched at 0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A
/// @notice Fixed-rate, fixed-term lending through maker offers: 1 unit pays 1 loan token at maturity. A taker fills
/// a signed/ratified maker offer with `take`; the buyer of units lends (credit), the seller borrows (debt) against
/// collateral. Loan assets flow buyer -> seller at the offer's tick price; at maturity borrowers `repay` units
/// into Midnight and lenders `withdraw` them. Implements the real ABI subset in IMidnightStandIn (real structs,
/// market ids, errors); anything else reverts NotImplemented(msg.sig).
/// @dev Deviations from the real protocol (documented):
/// - The continuous fee is stored per market (0 unless the admin calls setMarketContinuousFee) and checked against
///   each offer's continuousFeeCap on take, but never accrued; bad-debt socialisation (lossFactor), liquidations
///   and flash loans are not implemented (liquidate/flashLoan revert NotImplemented); settlement fees are
///   supported but default to 0.
/// - Offers are refused on take as the real contract refuses them: exactly one of maxUnits/maxAssets set
///   (InvalidOfferCaps), the unused receiver zero (a buy offer's receiverIfMakerIsSeller, a sell offer's
///   receiverIfTakerIsSeller: UnusedReceiverMustBeZero), the market's continuous fee within the offer's cap
///   (ContinuousFeeAboveOfferCap).
/// - Offer/taker callbacks are not supported: a non-zero callback reverts CallbacksNotSupported().
/// - Market data is kept in storage instead of an SSTORE2 blob; ids use the real CREATE2-style formula.
/// - Collateral LLTVs are not checked against an allow-list; liquidationCursor is stored but unused.
/// - Events are modelled on the public source (the reference ABI has none).
contract MidnightStandIn is StandInBase, IMidnightStandIn {
    using SafeERC20 for IERC20;

    bytes32 internal constant CALLBACK_SUCCESS = keccak256("morpho.midnight.callbackSuccess");
    uint256 internal constant WAD = 1e18;
    uint256 internal constant ORACLE_PRICE_SCALE = 1e36;
    uint256 internal constant CBP = 1e12; // centi-basis-point in WAD
    uint8 internal constant DEFAULT_TICK_SPACING = 4;

    error CallbacksNotSupported();

    event CreateMarket(bytes32 indexed id, Market market);
    event SupplyCollateral(
        address caller, bytes32 indexed id, address indexed collateralToken, uint256 assets, address indexed onBehalf
    );
    event WithdrawCollateral(
        address caller,
        bytes32 indexed id,
        address indexed collateralToken,
        uint256 assets,
        address indexed onBehalf,
        address receiver
    );
    event Repay(address indexed caller, bytes32 indexed id, uint256 units, address indexed onBehalf, address payer);
    event Withdraw(address indexed caller, bytes32 indexed id, uint256 units, address indexed onBehalf, address receiver);
    event SetIsAuthorized(address indexed caller, address indexed authorized, bool newIsAuthorized, address indexed onBehalf);
    event SetConsumed(address indexed caller, bytes32 indexed group, uint256 amount, address indexed onBehalf);
    /// @dev Leaner than the real Take event (which also carries group, consumed and fee/credit deltas).
    event Take(
        address caller,
        bytes32 indexed id,
        address indexed taker,
        address indexed maker,
        bool buy,
        uint256 units,
        uint256 buyerAssets,
        uint256 sellerAssets,
        address receiver,
        address payer
    );

    struct PositionData {
        uint128 credit;
        uint128 pendingFee;
        uint128 lastLossFactor;
        uint128 lastAccrual;
        uint128 debt;
        uint128 collateralBitmap;
        mapping(uint256 => uint128) collateral;
    }

    struct MarketStateData {
        uint128 totalUnits;
        uint128 withdrawable;
        uint16[7] settlementFeeCbps;
        uint8 tickSpacing;
        uint32 continuousFee;
    }

    struct TakeVars {
        bytes32 id;
        uint256 buyerAssets;
        uint256 sellerAssets;
        uint256 newConsumed;
        address buyer;
        address seller;
        uint256 buyerCreditIncrease;
        uint256 sellerCreditDecrease;
        uint256 sellerDebtIncrease;
        address payer;
        address receiver;
    }

    mapping(bytes32 => mapping(address => PositionData)) internal _positions;
    mapping(bytes32 => MarketStateData) internal _state;
    mapping(bytes32 => Market) internal _markets;
    mapping(address => mapping(bytes32 => uint128)) public consumed;
    mapping(address => mapping(address => bool)) public isAuthorized;
    mapping(address => uint16[7]) internal _defaultSettlementFeeCbp;
    mapping(address => uint256) public claimableSettlementFee;

    constructor(address _admin) StandInBase(_admin) {}

    // ------------------------------------------------------------------ admin (stand-in only)

    function setDefaultSettlementFeeCbps(address loanToken, uint16[7] memory cbps) external onlyAdmin {
        _defaultSettlementFeeCbp[loanToken] = cbps;
    }

    /// @dev The real ABI's setter (feeSetter-only there; the stand-in's admin plays the fee setter). The fee is
    /// stored so take can hold offers to their continuousFeeCap; the stand-in does not accrue it.
    function setMarketContinuousFee(bytes32 id, uint256 newContinuousFee) external {
        if (msg.sender != admin) revert OnlyFeeSetter();
        if (_state[id].tickSpacing == 0) revert MarketNotCreated();
        if (newContinuousFee > type(uint32).max) revert ContinuousFeeAboveMax();
        _state[id].continuousFee = uint32(newContinuousFee);
    }

    // ------------------------------------------------------------------ entry points

    function multicall(bytes[] memory calls) external {
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory returnData) = address(this).delegatecall(calls[i]);
            if (!success) {
                assembly ("memory-safe") {
                    revert(add(returnData, 0x20), mload(returnData))
                }
            }
        }
    }

    function setIsAuthorized(address authorized, bool newIsAuthorized, address onBehalf) external {
        _checkAuth(onBehalf, Unauthorized.selector);
        isAuthorized[onBehalf][authorized] = newIsAuthorized;
        emit SetIsAuthorized(msg.sender, authorized, newIsAuthorized, onBehalf);
    }

    /// @dev Raising `consumed` cancels offers of the group (type(uint128).max cancels all).
    function setConsumed(bytes32 group, uint128 amount, address onBehalf) external {
        _checkAuth(onBehalf, Unauthorized.selector);
        if (amount < consumed[onBehalf][group]) revert AlreadyConsumed();
        consumed[onBehalf][group] = amount;
        emit SetConsumed(msg.sender, group, amount, onBehalf);
    }

    function touchMarket(Market memory market) public returns (bytes32 id) {
        id = toId(market);
        MarketStateData storage s = _state[id];
        if (s.tickSpacing != 0) return id;
        if (market.chainId != block.chainid) revert InvalidChainId();
        if (market.midnight != address(this)) revert InvalidMidnight();
        if (market.maturity > block.timestamp + 100 * 365 days) revert MaturityTooFar();
        if (market.collateralParams.length == 0) revert NoCollateralParams();
        if (market.collateralParams.length > 128) revert TooManyCollateralParams();
        address previous;
        Market storage m = _markets[id];
        for (uint256 i = 0; i < market.collateralParams.length; i++) {
            CollateralParams memory c = market.collateralParams[i];
            if (c.token <= previous) revert CollateralParamsNotSorted();
            if (c.lltv == 0 || c.lltv > WAD) revert InvalidLltv();
            previous = c.token;
            m.collateralParams.push(c);
        }
        m.chainId = market.chainId;
        m.midnight = market.midnight;
        m.loanToken = market.loanToken;
        m.maturity = market.maturity;
        m.rcfThreshold = market.rcfThreshold;
        m.enterGate = market.enterGate;
        m.liquidatorGate = market.liquidatorGate;
        s.tickSpacing = DEFAULT_TICK_SPACING;
        s.settlementFeeCbps = _defaultSettlementFeeCbp[market.loanToken];
        emit CreateMarket(id, market);
    }

    function take(
        Offer memory offer,
        bytes memory ratifierData,
        uint256 units,
        address taker,
        address receiverIfTakerIsSeller,
        address takerCallback,
        bytes memory
    ) external returns (uint256, uint256) {
        _checkAuth(taker, TakerUnauthorized.selector);
        TakeVars memory v;
        v.id = touchMarket(offer.market);
        _validateOffer(offer, ratifierData, taker, receiverIfTakerIsSeller, v.id);
        if (offer.callback != address(0) || takerCallback != address(0)) revert CallbacksNotSupported();

        uint256 ttm = offer.market.maturity > block.timestamp ? offer.market.maturity - block.timestamp : 0;
        _price(offer, v, units, ttm);
        _consume(offer, v, units);

        (v.buyer, v.seller) = offer.buy ? (offer.maker, taker) : (taker, offer.maker);
        _moveUnits(offer, v, units, ttm);

        v.payer = offer.buy ? v.buyer : msg.sender;
        v.receiver = offer.buy ? receiverIfTakerIsSeller : offer.receiverIfMakerIsSeller;
        claimableSettlementFee[offer.market.loanToken] += v.buyerAssets - v.sellerAssets;
        _emitTake(offer, v, units, taker);

        IERC20 loan = IERC20(offer.market.loanToken);
        if (v.buyerAssets > v.sellerAssets) loan.safeTransferFrom(v.payer, address(this), v.buyerAssets - v.sellerAssets);
        loan.safeTransferFrom(v.payer, v.receiver, v.sellerAssets);
        if (!isHealthy(offer.market, v.id, v.seller)) revert SellerIsLiquidatable();
        return (v.buyerAssets, v.sellerAssets);
    }

    function supplyCollateral(Market memory market, uint256 collateralIndex, uint256 assets, address onBehalf) external {
        _checkAuth(onBehalf, Unauthorized.selector);
        bytes32 id = touchMarket(market);
        address token = market.collateralParams[collateralIndex].token;
        PositionData storage p = _positions[id][onBehalf];
        uint128 old = p.collateral[collateralIndex];
        p.collateral[collateralIndex] = old + uint128(assets);
        if (old == 0 && assets > 0) p.collateralBitmap |= uint128(1) << collateralIndex;
        emit SupplyCollateral(msg.sender, id, token, assets, onBehalf);
        IERC20(token).safeTransferFrom(msg.sender, address(this), assets);
    }

    function withdrawCollateral(
        Market memory market,
        uint256 collateralIndex,
        uint256 assets,
        address onBehalf,
        address receiver
    ) external {
        _checkAuth(onBehalf, Unauthorized.selector);
        bytes32 id = touchMarket(market);
        address token = market.collateralParams[collateralIndex].token;
        PositionData storage p = _positions[id][onBehalf];
        uint128 remaining = p.collateral[collateralIndex] - uint128(assets);
        p.collateral[collateralIndex] = remaining;
        if (remaining == 0 && assets > 0) p.collateralBitmap &= ~(uint128(1) << collateralIndex);
        if (!isHealthy(market, id, onBehalf)) revert UnhealthyBorrower();
        emit WithdrawCollateral(msg.sender, id, token, assets, onBehalf, receiver);
        IERC20(token).safeTransfer(receiver, assets);
    }

    function repay(Market memory market, uint256 units, address onBehalf, address callback, bytes memory) external {
        _checkAuth(onBehalf, Unauthorized.selector);
        if (callback != address(0)) revert CallbacksNotSupported();
        bytes32 id = touchMarket(market);
        _positions[id][onBehalf].debt -= uint128(units);
        _state[id].withdrawable += uint128(units);
        emit Repay(msg.sender, id, units, onBehalf, msg.sender);
        IERC20(market.loanToken).safeTransferFrom(msg.sender, address(this), units);
    }

    /// @dev Lenders withdraw repaid units 1:1 in loan token (reverts with an underflow until enough is repaid).
    function withdraw(Market memory market, uint256 units, address onBehalf, address receiver) external {
        _checkAuth(onBehalf, Unauthorized.selector);
        bytes32 id = touchMarket(market);
        _positions[id][onBehalf].credit -= uint128(units);
        _state[id].withdrawable -= uint128(units);
        _state[id].totalUnits -= uint128(units);
        emit Withdraw(msg.sender, id, units, onBehalf, receiver);
        IERC20(market.loanToken).safeTransfer(receiver, units);
    }

    // ------------------------------------------------------------------ views

    /// @notice Market id: CREATE2-style hash over the SSTORE2 blob of abi.encode(market) (SDK MarketUtils.toId).
    function toId(Market memory market) public view returns (bytes32) {
        bytes32 initHash = keccak256(abi.encodePacked(hex"600b380380600b5f395ff3", abi.encode(market)));
        return keccak256(abi.encodePacked(bytes1(0xff), address(this), bytes32(0), initHash));
    }

    function toMarket(bytes32 id) external view returns (Market memory) {
        return _markets[id];
    }

    function isHealthy(Market memory market, bytes32 id, address borrower) public view returns (bool) {
        PositionData storage p = _positions[id][borrower];
        if (p.debt == 0) return true;
        uint256 maxDebt;
        for (uint256 i = 0; i < market.collateralParams.length; i++) {
            uint256 amount = p.collateral[i];
            if (amount == 0) continue;
            CollateralParams memory c = market.collateralParams[i];
            maxDebt += amount * IMidnightOracle(c.oracle).price() / ORACLE_PRICE_SCALE * c.lltv / WAD;
        }
        return p.debt <= maxDebt;
    }

    function position(bytes32 id, address user)
        external
        view
        returns (uint128, uint128, uint128, uint128, uint128, uint128)
    {
        PositionData storage p = _positions[id][user];
        return (p.credit, p.pendingFee, p.lastLossFactor, p.lastAccrual, p.debt, p.collateralBitmap);
    }

    function credit(bytes32 id, address user) external view returns (uint128) {
        return _positions[id][user].credit;
    }

    function debt(bytes32 id, address user) external view returns (uint128) {
        return _positions[id][user].debt;
    }

    function collateral(bytes32 id, address user, uint256 index) external view returns (uint128) {
        return _positions[id][user].collateral[index];
    }

    function collateralBitmap(bytes32 id, address user) external view returns (uint128) {
        return _positions[id][user].collateralBitmap;
    }

    function pendingFee(bytes32 id, address user) external view returns (uint128) {
        return _positions[id][user].pendingFee;
    }

    function lastAccrual(bytes32 id, address user) external view returns (uint128) {
        return _positions[id][user].lastAccrual;
    }

    function lastLossFactor(bytes32 id, address user) external view returns (uint128) {
        return _positions[id][user].lastLossFactor;
    }

    function lossFactor(bytes32) external pure returns (uint128) {
        return 0;
    }

    function liquidationLocked(bytes32, address) external pure returns (bool) {
        return false;
    }

    function updatePositionView(Market memory, bytes32 id, address user)
        external
        view
        returns (uint128 newCredit, uint128 newPendingFee, uint128 accruedFee)
    {
        return (_positions[id][user].credit, _positions[id][user].pendingFee, 0);
    }

    /// @notice marketState(bytes32) -> (totalUnits, lossFactor, withdrawable, continuousFeeCredit,
    /// settlementFeeCbp0..6, continuousFee, tickSpacing), ABI-encoded by hand in the fallback because 13 return
    /// values do not fit the legacy code generator's stack. Every other unknown selector reverts NotImplemented.
    fallback() external payable override {
        if (msg.sig != bytes4(keccak256("marketState(bytes32)")) || msg.data.length < 36) {
            revert NotImplemented(msg.sig);
        }
        bytes memory out = _encodeMarketState(abi.decode(msg.data[4:], (bytes32)));
        assembly ("memory-safe") {
            return(add(out, 32), mload(out))
        }
    }

    function _encodeMarketState(bytes32 id) internal view returns (bytes memory) {
        MarketStateData storage s = _state[id];
        return abi.encode(s.totalUnits, uint128(0), s.withdrawable, uint128(0), s.settlementFeeCbps, s.continuousFee, s.tickSpacing);
    }

    function totalUnits(bytes32 id) external view returns (uint128) {
        return _state[id].totalUnits;
    }

    function withdrawable(bytes32 id) external view returns (uint128) {
        return _state[id].withdrawable;
    }

    function tickSpacing(bytes32 id) external view returns (uint8) {
        return _state[id].tickSpacing;
    }

    function settlementFeeCbps(bytes32 id) external view returns (uint16[7] memory) {
        return _state[id].settlementFeeCbps;
    }

    /// @notice Settlement fee (WAD per unit) for a time to maturity: piecewise-linear between the breakpoints
    /// 0d, 1d, 7d, 30d, 90d, 180d, 360d; constant beyond 360d.
    function settlementFee(bytes32 id, uint256 timeToMaturity) public view returns (uint256) {
        uint16[7] memory cbps = _state[id].settlementFeeCbps;
        uint32[7] memory breakpoints = [uint32(0), 1 days, 7 days, 30 days, 90 days, 180 days, 360 days];
        if (timeToMaturity >= breakpoints[6]) return uint256(cbps[6]) * CBP;
        for (uint256 i = 1; i < 7; i++) {
            if (timeToMaturity < breakpoints[i]) {
                uint256 lo = uint256(cbps[i - 1]) * CBP;
                uint256 hi = uint256(cbps[i]) * CBP;
                uint256 span = breakpoints[i] - breakpoints[i - 1];
                uint256 into = timeToMaturity - breakpoints[i - 1];
                return hi >= lo ? lo + (hi - lo) * into / span : lo - (lo - hi) * into / span;
            }
        }
        return uint256(cbps[6]) * CBP;
    }

    function continuousFee(bytes32 id) external view returns (uint32) {
        return _state[id].continuousFee;
    }

    function continuousFeeCredit(bytes32) external pure returns (uint128) {
        return 0;
    }

    function defaultContinuousFee(address) external pure returns (uint32) {
        return 0;
    }

    function defaultSettlementFeeCbp(address loanToken, uint256 index) external view returns (uint16) {
        return _defaultSettlementFeeCbp[loanToken][index];
    }

    /// @notice Stand-in helper: price (WAD) of a tick, as used by take.
    function tickToPrice(uint256 tick) external pure returns (uint256) {
        return MidnightTickMath.tickToPrice(tick);
    }

    // ------------------------------------------------------------------ internals

    function _checkAuth(address onBehalf, bytes4 errorSelector) internal view {
        if (onBehalf != msg.sender && !isAuthorized[onBehalf][msg.sender]) {
            assembly ("memory-safe") {
                mstore(0, errorSelector)
                revert(0, 4)
            }
        }
    }

    function _validateOffer(
        Offer memory offer,
        bytes memory ratifierData,
        address taker,
        address receiverIfTakerIsSeller,
        bytes32 id
    ) internal view {
        // Exactly one size cap: both set is ambiguous, neither set would leave the offer unbounded.
        if ((offer.maxAssets == 0) == (offer.maxUnits == 0)) revert InvalidOfferCaps();
        // The seller's receiver is the maker's on a sell offer, the taker's on a buy offer; the other must be
        // zero so proceeds can never be routed by a field the trade does not use.
        if (offer.buy ? offer.receiverIfMakerIsSeller != address(0) : receiverIfTakerIsSeller != address(0)) {
            revert UnusedReceiverMustBeZero();
        }
        if (_state[id].continuousFee > offer.continuousFeeCap) revert ContinuousFeeAboveOfferCap();
        if (offer.tick % _state[id].tickSpacing != 0 || offer.tick > MidnightTickMath.MAX_TICK) {
            revert TickNotAccessible();
        }
        if (block.timestamp < offer.start) revert OfferNotStarted();
        if (block.timestamp > offer.expiry) revert OfferExpired();
        if (offer.maker == taker) revert SelfTake();
        if (!isAuthorized[offer.maker][offer.ratifier]) revert RatifierUnauthorized();
        if (IMidnightRatifier(offer.ratifier).isRatified(offer, ratifierData) != CALLBACK_SUCCESS) {
            revert RatifierFailed();
        }
    }

    function _price(Offer memory offer, TakeVars memory v, uint256 units, uint256 ttm) internal view {
        uint256 offerPrice = MidnightTickMath.tickToPrice(offer.tick);
        uint256 fee = settlementFee(v.id, ttm);
        uint256 sellerPrice = offer.buy ? offerPrice - fee : offerPrice;
        uint256 buyerPrice = sellerPrice + fee;
        v.buyerAssets = offer.buy ? units * buyerPrice / WAD : _mulDivUp(units, buyerPrice, WAD);
        v.sellerAssets = offer.buy ? units * sellerPrice / WAD : _mulDivUp(units, sellerPrice, WAD);
    }

    function _consume(Offer memory offer, TakeVars memory v, uint256 units) internal {
        uint256 used = consumed[offer.maker][offer.group];
        if (offer.maxAssets > 0) {
            v.newConsumed = used + (offer.buy ? v.buyerAssets : v.sellerAssets);
            if (v.newConsumed > offer.maxAssets) revert ConsumedAssets();
        } else {
            v.newConsumed = used + units;
            if (v.newConsumed > offer.maxUnits) revert ConsumedUnits();
        }
        consumed[offer.maker][offer.group] = uint128(v.newConsumed);
    }

    function _moveUnits(Offer memory offer, TakeVars memory v, uint256 units, uint256 ttm) internal {
        PositionData storage buyerPos = _positions[v.id][v.buyer];
        PositionData storage sellerPos = _positions[v.id][v.seller];
        v.buyerCreditIncrease = units > buyerPos.debt ? units - buyerPos.debt : 0;
        v.sellerCreditDecrease = units < sellerPos.credit ? units : sellerPos.credit;
        v.sellerDebtIncrease = units - v.sellerCreditDecrease;
        if (ttm == 0 && v.sellerDebtIncrease > 0) revert CannotIncreaseDebtPostMaturity();
        if (offer.reduceOnly && (offer.buy ? v.buyerCreditIncrease > 0 : v.sellerDebtIncrease > 0)) {
            revert MakerCreditOrDebtIncreased();
        }
        address gate = offer.market.enterGate;
        if (gate != address(0)) {
            if (v.buyerCreditIncrease > 0 && !IMidnightEnterGate(gate).canIncreaseCredit(v.buyer)) {
                revert BuyerGatedFromIncreasingCredit();
            }
            if (v.sellerDebtIncrease > 0 && !IMidnightEnterGate(gate).canIncreaseDebt(v.seller)) {
                revert SellerGatedFromIncreasingDebt();
            }
        }
        buyerPos.debt -= uint128(units - v.buyerCreditIncrease);
        buyerPos.credit += uint128(v.buyerCreditIncrease);
        sellerPos.credit -= uint128(v.sellerCreditDecrease);
        sellerPos.debt += uint128(v.sellerDebtIncrease);
        MarketStateData storage s = _state[v.id];
        s.totalUnits = uint128(s.totalUnits + v.buyerCreditIncrease - v.sellerCreditDecrease);
    }

    function _emitTake(Offer memory offer, TakeVars memory v, uint256 units, address taker) internal {
        emit Take(
            msg.sender, v.id, taker, offer.maker, offer.buy, units, v.buyerAssets, v.sellerAssets, v.receiver, v.payer
        );
    }

    function _mulDivUp(uint256 x, uint256 y, uint256 d) internal pure returns (uint256) {
        return (x * y + (d - 1)) / d;
    }
}
