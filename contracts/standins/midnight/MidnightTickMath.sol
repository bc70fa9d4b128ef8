// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice Midnight tick <-> price math (protocols.md §7a):
/// price(tick) = 1e36 / (1e18 + e^(ln(1.005) * (MAX_TICK / 2 - tick))), rounded half-down, then rounded to a
/// multiple of 1e11 (1e-7 WAD). Tick 0 is the lowest price (~0), MAX_TICK (6744) the highest (~1e18).
/// The exponential uses range reduction by ln 2 and a 3rd-order Taylor polynomial, which is what the SDK's
/// tick tables are computed with, so stand-in prices match the book API to the 1e-7 rounding step.
library MidnightTickMath {
    int256 internal constant LN_ONE_PLUS_DELTA = 4987541511039073; // floor(ln(1.005) * 1e18)
    uint256 internal constant MAX_TICK = 6744;
    uint256 internal constant PRICE_ROUNDING_STEP = 1e11;

    error TickOutOfRange();

    function _divHalfDown(uint256 x, uint256 d) private pure returns (uint256) {
        return (x + (d - 1) / 2) / d;
    }

    /// @dev e^(x / 1e18) * 1e18.
    function wExp(int256 x) internal pure returns (uint256) {
        if (x < 0) return 1e36 / wExp(-x);
        int256 ln2 = 693147180559945309;
        int256 offset = 322611214989459870;
        int256 q = (x + offset) / ln2;
        int256 r = x - q * ln2;
        int256 second = r * r / 2e18;
        int256 third = second * r / 3e18;
        return uint256(1e18 + r + second + third) << uint256(q);
    }

    function tickToPrice(uint256 tick) internal pure returns (uint256) {
        if (tick > MAX_TICK) revert TickOutOfRange();
        uint256 raw = _divHalfDown(1e36, 1e18 + wExp(LN_ONE_PLUS_DELTA * (int256(MAX_TICK / 2) - int256(tick))));
        return _divHalfDown(raw, PRICE_ROUNDING_STEP) * PRICE_ROUNDING_STEP;
    }
}
