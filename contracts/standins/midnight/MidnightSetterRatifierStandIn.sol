// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {StandInBase} from "../common/StandInBase.sol";
import {IMidnightStandIn} from "./IMidnightStandIn.sol";

/// @title Midnight SetterRatifier stand-in (devnet only), etched at 0x800B5F12A61B8198a5a6EfD794Cac6699B294d63
/// @notice Makers ratify a Merkle root of offers on-chain (instead of signing it, as with EcrecoverRatifier);
/// `take` asks the ratifier whether the offer is a leaf of a ratified root. ratifierData = abi.encode(bytes32 root,
/// bytes32[] proof). The maker must also authorize this ratifier on Midnight (`setIsAuthorized`).
/// @dev Deviation: leaves are keccak256(abi.encode(offer)) and the tree uses sorted-pair hashing, not the real
/// HashLib EIP-712 offer hash; roots built by the real SDK will therefore not verify here.
contract MidnightSetterRatifierStandIn is StandInBase {
    bytes32 internal constant CALLBACK_SUCCESS = keccak256("morpho.midnight.callbackSuccess");

    error Unauthorized();
    error NotMidnight();
    error InvalidProof();
    error NotRatified();

    event SetIsRootRatified(address indexed caller, address indexed maker, bytes32 indexed root, bool newIsRootRatified);

    address public immutable MIDNIGHT;
    mapping(address => mapping(bytes32 => bool)) public isRootRatified;

    constructor(address midnight) StandInBase(address(0)) {
        MIDNIGHT = midnight;
    }

    function setIsRootRatified(address maker, bytes32 root, bool newIsRootRatified) external {
        if (maker != msg.sender && !IMidnightAuth(MIDNIGHT).isAuthorized(maker, msg.sender)) revert Unauthorized();
        isRootRatified[maker][root] = newIsRootRatified;
        emit SetIsRootRatified(msg.sender, maker, root, newIsRootRatified);
    }

    function isRatified(IMidnightStandIn.Offer memory offer, bytes memory ratifierData) external view returns (bytes32) {
        if (msg.sender != MIDNIGHT) revert NotMidnight();
        (bytes32 root, bytes32[] memory proof) = abi.decode(ratifierData, (bytes32, bytes32[]));
        bytes32 node = hashOffer(offer);
        for (uint256 i = 0; i < proof.length; i++) {
            node = node <= proof[i] ? keccak256(abi.encode(node, proof[i])) : keccak256(abi.encode(proof[i], node));
        }
        if (node != root) revert InvalidProof();
        if (!isRootRatified[offer.maker][root]) revert NotRatified();
        return CALLBACK_SUCCESS;
    }

    /// @notice Leaf hash of an offer (a single-offer tree has root == leaf and an empty proof).
    function hashOffer(IMidnightStandIn.Offer memory offer) public pure returns (bytes32) {
        return keccak256(abi.encode(offer));
    }
}

interface IMidnightAuth {
    function isAuthorized(address authorizer, address authorized) external view returns (bool);
}
