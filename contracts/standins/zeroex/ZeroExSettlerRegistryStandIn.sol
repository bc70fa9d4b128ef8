// SPDX-License-Identifier: MIT
pragma solidity ^0.8.25;

import {StandInBase} from "../common/StandInBase.sol";

/// @title 0x Settler deployer/registry stand-in (devnet only), etched at 0x00000000000004533Fe15556B1E086BB1A72cEae
/// @notice The two views of 0xProject/0x-settler's Deployer (src/deployer/IDeployer.sol) that integrators use to
/// find the live Settler: `ownerOf(feature)` is the current deployment of a feature (2 = taker-submitted, the
/// Settler that AllowanceHolder quotes execute through) and `prev(feature)` the one before it. The devnet has a
/// single taker-submitted Settler (the stand-in) and no previous one.
/// @dev Deviations: no NFT, ownership, deploy or pause machinery; `prev` always reverts NoInstance; other
/// selectors revert NotImplemented(selector).
contract ZeroExSettlerRegistryStandIn is StandInBase {
    /// The taker-submitted feature (0x-settler's README: "for taker-submitted flows, the feature number is 2").
    uint128 internal constant TAKER_SUBMITTED = 2;

    error ERC721NonexistentToken(uint256 tokenId);
    error NoInstance();

    address public immutable takerSubmittedSettler;

    constructor(address _takerSubmittedSettler) StandInBase(address(0)) {
        takerSubmittedSettler = _takerSubmittedSettler;
    }

    function ownerOf(uint256 tokenId) external view returns (address) {
        if (tokenId != TAKER_SUBMITTED) revert ERC721NonexistentToken(tokenId);
        return takerSubmittedSettler;
    }

    function prev(uint128 feature) external pure returns (address) {
        if (feature != TAKER_SUBMITTED) revert ERC721NonexistentToken(feature);
        revert NoInstance();
    }
}
