// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice Settable Morpho-style oracle for Midnight collateral: `price()` = loan assets per collateral asset,
/// scaled by 1e36 (adjusted for decimals), like Morpho Blue's IOracle. Devnet only.
contract MidnightOracleStandIn {
    error NotAdmin();

    event PriceSet(uint256 price);

    address public immutable admin;
    uint256 public price;

    constructor(address _admin, uint256 _price) {
        admin = _admin;
        price = _price;
        emit PriceSet(_price);
    }

    function setPrice(uint256 newPrice) external {
        if (msg.sender != admin) revert NotAdmin();
        price = newPrice;
        emit PriceSet(newPrice);
    }
}
