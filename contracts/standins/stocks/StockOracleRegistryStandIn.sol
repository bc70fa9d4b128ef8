// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {StandInBase} from "../common/StandInBase.sol";

interface ITokenizedStockView {
    function multiplier() external view returns (uint256);
    function paused() external view returns (bool);
}

/// @title Coinbase tokenized-stock onchain (oracle) registry stand-in, etched at
/// 0x3f3E8cf41cdd3b1D118c16471aB0113DfDDd5CaD (devnet only)
/// @notice `getOracleParams(token)` (0xd4197e82) returns the token's live multiplier (1e18) and whether it is
/// paused; tokens must be registered by the admin (unregistered tokens revert UnknownToken).
contract StockOracleRegistryStandIn is StandInBase {
    error UnknownToken(address token);

    event TokenRegistered(address indexed token, address indexed feed, string symbol);

    mapping(address => bool) public isRegistered;
    mapping(address => address) public feedOf;
    address[] internal _tokens;

    constructor(address admin_) StandInBase(admin_) {}

    function register(address token, address feed, string calldata symbol) external onlyAdmin {
        if (!isRegistered[token]) _tokens.push(token);
        isRegistered[token] = true;
        feedOf[token] = feed;
        emit TokenRegistered(token, feed, symbol);
    }

    function getOracleParams(address token) external view returns (uint256 multiplier, bool paused) {
        if (!isRegistered[token]) revert UnknownToken(token);
        return (ITokenizedStockView(token).multiplier(), ITokenizedStockView(token).paused());
    }

    function tokens() external view returns (address[] memory) {
        return _tokens;
    }
}
