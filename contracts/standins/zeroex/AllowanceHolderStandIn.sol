// SPDX-License-Identifier: MIT
pragma solidity ^0.8.25;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {StandInBase} from "../common/StandInBase.sol";
import {IAllowanceHolderStandIn} from "./IZeroExStandIn.sol";

/// @title 0x AllowanceHolder stand-in (devnet only), etched at 0x0000000000001fF3684f28c67538d4D072C22734
/// @notice Same ABI and semantics as 0xProject/0x-settler AllowanceHolderBase: takers approve this contract;
/// `exec` records a transient allowance (operator, taker, token) = amount, rejects ERC-20 targets
/// (ConfusedDeputy), forwards msg.value and the calldata with the taker's address appended to `target`
/// (the Settler), and clears the allowance afterwards. `transferFrom` lets the operator spend it with a real
/// `transferFrom` of the token, so a missing approval or balance reverts as on Base.
/// @dev Deviation: unknown selectors revert NotImplemented(selector) (the real contract reverts empty).
contract AllowanceHolderStandIn is StandInBase, IAllowanceHolderStandIn {
    using SafeERC20 for IERC20;

    /// Thrown when `target` answers `balanceOf` like an ERC-20 (the real contract's guard).
    error ConfusedDeputy();

    constructor() StandInBase(address(0)) {}

    function _slot(address operator, address owner, address token) private pure returns (bytes32) {
        return keccak256(abi.encode(operator, owner, token));
    }

    function _rejectIfERC20(address target, bytes calldata data) private view {
        address probe = address(0xdead);
        if (data.length > 0x10) {
            address first = address(uint160(bytes20(data[0x10:0x24])));
            if (first != address(0)) probe = first;
        }
        (bool ok, bytes memory ret) =
            target.staticcall{gas: 500_000}(abi.encodeWithSelector(IERC20.balanceOf.selector, probe));
        if (ok && ret.length >= 0x20) revert ConfusedDeputy();
    }

    function exec(address operator, address token, uint256 amount, address payable target, bytes calldata data)
        external
        payable
        returns (bytes memory result)
    {
        _rejectIfERC20(target, data);
        bytes32 slot = _slot(operator, msg.sender, token);
        assembly ("memory-safe") {
            tstore(slot, amount)
        }
        bool ok;
        (ok, result) = target.call{value: msg.value}(abi.encodePacked(data, msg.sender));
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(result, 0x20), mload(result))
            }
        }
        assembly ("memory-safe") {
            tstore(slot, 0)
        }
    }

    function transferFrom(address token, address owner, address recipient, uint256 amount) external returns (bool) {
        bytes32 slot = _slot(msg.sender, owner, token);
        uint256 allowed;
        assembly ("memory-safe") {
            allowed := tload(slot)
        }
        // Underflow (panic 0x11) when the operator spends more than the taker allowed, as in the real one.
        allowed -= amount;
        assembly ("memory-safe") {
            tstore(slot, allowed)
        }
        IERC20(token).safeTransferFrom(owner, recipient, amount);
        return true;
    }

    /// The real contract answers balanceOf with a one-byte revert, so it never passes for an ERC-20.
    function balanceOf(address) external pure returns (uint256) {
        assembly ("memory-safe") {
            revert(0x00, 0x01)
        }
    }
}
