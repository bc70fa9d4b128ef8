// SPDX-License-Identifier: MIT
pragma solidity ^0.8.25;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {StandInBase} from "../common/StandInBase.sol";
import {IDepositCollectorStandIn} from "./IX402BatchSettlementStandIn.sol";

/// EIP-3009's pull, as USDC (FiatTokenV2_2) exposes it with a packed signature.
interface IERC3009ReceiveStandIn {
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external;
}

/// @title x402 ERC3009DepositCollector stand-in (devnet only), etched at 0x4020806089470a89826cB9fB1f4059150b550004
/// @notice The collector x402's npm package (evm) batch-settlement names for EIP-3009 deposits (its client signs
/// ReceiveWithAuthorization with `to` = this address): `receiveWithAuthorization` requires the payee to be the
/// caller, so the tokens land here and are forwarded to the settlement contract. The authorization nonce binds
/// the deposit to its channel: keccak256(abi.encode(channelId, salt)), salt from `collectorData`.
/// @dev Only the settlement contract given at construction may call `collect` (otherwise anyone could replay a
/// signed authorization into a channel of their choosing). Deviation: unknown selectors revert NotImplemented.
contract ERC3009DepositCollectorStandIn is StandInBase, IDepositCollectorStandIn {
    using SafeERC20 for IERC20;

    error OnlyX402BatchSettlement();
    error InvalidX402BatchSettlementAddress();

    address public immutable x402BatchSettlement;

    constructor(address settlement) StandInBase(address(0)) {
        if (settlement == address(0)) revert InvalidX402BatchSettlementAddress();
        x402BatchSettlement = settlement;
    }

    /// @param collectorData abi.encode(uint256 validAfter, uint256 validBefore, uint256 salt, bytes signature)
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData)
        external
    {
        if (msg.sender != x402BatchSettlement) revert OnlyX402BatchSettlement();
        (uint256 validAfter, uint256 validBefore, uint256 salt, bytes memory signature) =
            abi.decode(collectorData, (uint256, uint256, uint256, bytes));
        IERC3009ReceiveStandIn(token).receiveWithAuthorization(
            payer, address(this), amount, validAfter, validBefore, keccak256(abi.encode(channelId, salt)), signature
        );
        IERC20(token).safeTransfer(msg.sender, amount);
    }
}
