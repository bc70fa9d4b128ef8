// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IMidnightStandIn} from "./IMidnightStandIn.sol";

interface IMidnightBookView {
    function isAuthorized(address authorizer, address authorized) external view returns (bool);
    function consumed(address user, bytes32 group) external view returns (uint128);
    function toId(IMidnightStandIn.Market memory market) external view returns (bytes32);
}

/// @title Devnet-only Midnight offer book (no Base counterpart)
/// @notice On Base the book lives off-chain (Morpho API `/v0/midnight/books`, `/quote` returning takeable offers
/// with their ratifier data). The devnet has no API, so makers post their ratified offers here and the service's
/// devnet adapter reads `liveOffers(marketId)` to build asks/bids and `take` calldata.
contract MidnightOfferBookStandIn {
    error NotMaker();

    event OfferPosted(bytes32 indexed marketId, uint256 indexed offerId, address indexed maker, bool buy, uint256 tick);
    event OfferCanceled(bytes32 indexed marketId, uint256 indexed offerId);

    struct Entry {
        IMidnightStandIn.Offer offer;
        bytes ratifierData;
        bool canceled;
    }

    address public immutable MIDNIGHT;
    mapping(bytes32 => Entry[]) internal _entries;

    constructor(address midnight) {
        MIDNIGHT = midnight;
    }

    function post(IMidnightStandIn.Offer memory offer, bytes memory ratifierData) external returns (uint256 offerId) {
        if (offer.maker != msg.sender && !IMidnightBookView(MIDNIGHT).isAuthorized(offer.maker, msg.sender)) {
            revert NotMaker();
        }
        bytes32 marketId = IMidnightBookView(MIDNIGHT).toId(offer.market);
        Entry[] storage entries = _entries[marketId];
        offerId = entries.length;
        entries.push();
        Entry storage e = entries[offerId];
        _copyOffer(e, offer);
        e.ratifierData = ratifierData;
        emit OfferPosted(marketId, offerId, offer.maker, offer.buy, offer.tick);
    }

    function cancel(bytes32 marketId, uint256 offerId) external {
        Entry storage e = _entries[marketId][offerId];
        if (e.offer.maker != msg.sender) revert NotMaker();
        e.canceled = true;
        emit OfferCanceled(marketId, offerId);
    }

    function offerCount(bytes32 marketId) external view returns (uint256) {
        return _entries[marketId].length;
    }

    /// @notice Offers that can still be taken now, with their ratifier data and remaining capacity
    /// (in units if maxUnits is set, else in assets).
    function liveOffers(bytes32 marketId)
        external
        view
        returns (
            uint256[] memory offerIds,
            IMidnightStandIn.Offer[] memory offers,
            bytes[] memory ratifierData,
            uint256[] memory remaining
        )
    {
        Entry[] storage entries = _entries[marketId];
        uint256 n;
        for (uint256 i = 0; i < entries.length; i++) {
            if (_remaining(entries[i]) > 0) n++;
        }
        offerIds = new uint256[](n);
        offers = new IMidnightStandIn.Offer[](n);
        ratifierData = new bytes[](n);
        remaining = new uint256[](n);
        uint256 k;
        for (uint256 i = 0; i < entries.length; i++) {
            uint256 left = _remaining(entries[i]);
            if (left == 0) continue;
            offerIds[k] = i;
            offers[k] = entries[i].offer;
            ratifierData[k] = entries[i].ratifierData;
            remaining[k] = left;
            k++;
        }
    }

    function _remaining(Entry storage e) internal view returns (uint256) {
        IMidnightStandIn.Offer storage o = e.offer;
        if (e.canceled || block.timestamp > o.expiry || block.timestamp < o.start) return 0;
        if (block.timestamp >= o.market.maturity && !o.buy) return 0;
        uint256 used = IMidnightBookView(MIDNIGHT).consumed(o.maker, o.group);
        uint256 cap = o.maxAssets > 0 ? o.maxAssets : o.maxUnits;
        return cap > used ? cap - used : 0;
    }

    function _copyOffer(Entry storage e, IMidnightStandIn.Offer memory offer) internal {
        IMidnightStandIn.Offer storage s = e.offer;
        IMidnightStandIn.Market storage m = s.market;
        m.chainId = offer.market.chainId;
        m.midnight = offer.market.midnight;
        m.loanToken = offer.market.loanToken;
        for (uint256 i = 0; i < offer.market.collateralParams.length; i++) {
            m.collateralParams.push(offer.market.collateralParams[i]);
        }
        m.maturity = offer.market.maturity;
        m.rcfThreshold = offer.market.rcfThreshold;
        m.enterGate = offer.market.enterGate;
        m.liquidatorGate = offer.market.liquidatorGate;
        s.buy = offer.buy;
        s.maker = offer.maker;
        s.start = offer.start;
        s.expiry = offer.expiry;
        s.tick = offer.tick;
        s.group = offer.group;
        s.callback = offer.callback;
        s.callbackData = offer.callbackData;
        s.receiverIfMakerIsSeller = offer.receiverIfMakerIsSeller;
        s.ratifier = offer.ratifier;
        s.reduceOnly = offer.reduceOnly;
        s.maxUnits = offer.maxUnits;
        s.maxAssets = offer.maxAssets;
        s.continuousFeeCap = offer.continuousFeeCap;
    }
}
