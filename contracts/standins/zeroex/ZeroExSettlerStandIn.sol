// SPDX-License-Identifier: MIT
pragma solidity ^0.8.25;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {StandInBase} from "../common/StandInBase.sol";
import {IAllowanceHolderStandIn, ISettlerActionsStandIn, ISettlerStandIn} from "./IZeroExStandIn.sol";

/// @title 0x Settler stand-in (devnet only), at a devnet address (0x never publishes a fixed Settler address:
/// integrators must take `transaction.to` from the quote and approve AllowanceHolder, never the Settler).
/// @notice Runs the taker-submitted `execute(AllowedSlippage, bytes[] actions, bytes32 zid)` of
/// 0xProject/0x-settler with two real actions: TRANSFER_FROM (pulls the taker's tokens through
/// AllowanceHolder.transferFrom) and BASIC (approve `pool`, write the amount into its calldata, call it), which
/// the devnet's 0x simulator uses to swap through SwapRouter02 / the Aerodrome router and to wrap or unwrap
/// WETH. Then the real final check: the Settler's whole balance of `buyToken` (native ETH for the
/// 0xEeee… sentinel) must reach `minAmountOut`, else TooMuchSlippage, and is sent to `recipient`.
/// @dev Any other action reverts ActionInvalid; other selectors revert NotImplemented.
contract ZeroExSettlerStandIn is StandInBase, ISettlerStandIn {
    using SafeERC20 for IERC20;

    address internal constant ETH_ADDRESS = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;
    uint256 internal constant BASIS = 10_000;

    error ActionInvalid(uint256 i, bytes4 action, bytes data);
    error TooMuchSlippage(address token, uint256 expected, uint256 actual);
    error ConfusedDeputy();
    error InvalidOffset();
    error InvalidTarget();
    error InvalidSignatureLen();
    error SignatureExpired(uint256 deadline);

    IAllowanceHolderStandIn public immutable allowanceHolder;

    constructor(address _allowanceHolder) StandInBase(address(0)) {
        allowanceHolder = IAllowanceHolderStandIn(_allowanceHolder);
    }

    receive() external payable {}

    /// The taker: AllowanceHolder appends it to the calldata (ERC-2771 style); a direct caller is itself.
    function _msgSender() internal view returns (address sender) {
        sender = msg.sender;
        if (sender == address(allowanceHolder)) sender = address(bytes20(msg.data[msg.data.length - 20:]));
    }

    function execute(AllowedSlippage calldata slippage, bytes[] calldata actions, bytes32)
        external
        payable
        returns (bool)
    {
        for (uint256 i = 0; i < actions.length; i++) {
            _dispatch(i, actions[i]);
        }
        _checkSlippageAndTransfer(slippage);
        return true;
    }

    function _dispatch(uint256 i, bytes calldata action) internal {
        bytes4 selector = bytes4(action[:4]);
        if (selector == ISettlerActionsStandIn.TRANSFER_FROM.selector) {
            (address recipient, ISettlerActionsStandIn.PermitTransferFrom memory permit, bytes memory sig) =
                abi.decode(action[4:], (address, ISettlerActionsStandIn.PermitTransferFrom, bytes));
            if (sig.length != 0) revert InvalidSignatureLen();
            if (block.timestamp > permit.deadline) revert SignatureExpired(permit.deadline);
            allowanceHolder.transferFrom(permit.permitted.token, _msgSender(), recipient, permit.permitted.amount);
        } else if (selector == ISettlerActionsStandIn.BASIC.selector) {
            (address sellToken, uint256 bps, address pool, uint256 offset, bytes memory data) =
                abi.decode(action[4:], (address, uint256, address, uint256, bytes));
            _basic(sellToken, bps, pool, offset, data);
        } else {
            revert ActionInvalid(i, selector, action);
        }
    }

    function _basic(address sellToken, uint256 bps, address pool, uint256 offset, bytes memory data) internal {
        if (pool == address(allowanceHolder)) revert ConfusedDeputy();
        uint256 value;
        if (sellToken == ETH_ADDRESS) {
            value = address(this).balance * bps / BASIS;
            if (data.length == 0) {
                if (offset != 0) revert InvalidOffset();
            } else {
                _writeAmount(data, offset, value);
            }
        } else if (sellToken != address(0)) {
            uint256 amount = IERC20(sellToken).balanceOf(address(this)) * bps / BASIS;
            _writeAmount(data, offset, amount);
            if (sellToken != pool) IERC20(sellToken).forceApprove(pool, amount);
        } else if (offset != 0) {
            revert InvalidOffset();
        }
        (bool ok, bytes memory ret) = pool.call{value: value}(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(ret, 0x20), mload(ret))
            }
        }
        if (ret.length == 0 && pool.code.length == 0) revert InvalidTarget();
    }

    function _writeAmount(bytes memory data, uint256 offset, uint256 amount) internal pure {
        if (offset + 32 > data.length) revert InvalidOffset();
        assembly ("memory-safe") {
            mstore(add(add(data, 0x20), offset), amount)
        }
    }

    function _checkSlippageAndTransfer(AllowedSlippage calldata slippage) internal {
        if (slippage.minAmountOut == 0 && slippage.buyToken == address(0)) return;
        if (slippage.buyToken == ETH_ADDRESS) {
            uint256 amountOut = address(this).balance;
            if (amountOut < slippage.minAmountOut) {
                revert TooMuchSlippage(slippage.buyToken, slippage.minAmountOut, amountOut);
            }
            (bool ok,) = slippage.recipient.call{value: amountOut}("");
            if (!ok) revert InvalidTarget();
        } else {
            uint256 amountOut = IERC20(slippage.buyToken).balanceOf(address(this));
            if (amountOut < slippage.minAmountOut) {
                revert TooMuchSlippage(slippage.buyToken, slippage.minAmountOut, amountOut);
            }
            IERC20(slippage.buyToken).safeTransfer(slippage.recipient, amountOut);
        }
    }
}
