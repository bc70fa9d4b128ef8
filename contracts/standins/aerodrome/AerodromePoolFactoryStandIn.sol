// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {StandInBase} from "../common/StandInBase.sol";
import {IAerodromePoolFactoryStandIn, IAerodromePoolStandIn} from "./AerodromeInterfacesStandIn.sol";

/// @title Aerodrome PoolFactory stand-in (devnet only), etched at 0x420DD381b31aEf6683db6B902084cB0FFECe40Da
/// @notice Creates volatile pools as EIP-1167 clones of the pool implementation with CREATE2 salt
/// keccak256(abi.encodePacked(token0, token1, stable)), like the real factory, so Router.poolFor predicts them.
/// Volatile fee 30 bps (0.3%), stable fee 5 bps (reported only: stable pools are not supported).
contract AerodromePoolFactoryStandIn is StandInBase, IAerodromePoolFactoryStandIn {
    address public immutable implementation;
    uint256 public volatileFee = 30;
    uint256 public stableFee = 5;
    bool public isPaused;

    address[] public allPools;
    mapping(address => bool) public isPool;
    mapping(address => mapping(address => mapping(bool => address))) internal _getPool;

    constructor(address admin_, address implementation_) StandInBase(admin_) {
        implementation = implementation_;
    }

    function setVolatileFee(uint256 fee) external onlyAdmin {
        if (fee == 0) revert ZeroFee();
        if (fee > 300) revert FeeTooHigh();
        volatileFee = fee;
    }

    function allPoolsLength() external view returns (uint256) {
        return allPools.length;
    }

    function getFee(address pool, bool _stable) external view returns (uint256) {
        pool;
        return _stable ? stableFee : volatileFee;
    }

    function getPool(address tokenA, address tokenB, bool stable) external view returns (address) {
        return _getPool[tokenA][tokenB][stable];
    }

    /// @dev Slipstream-compatible overload: fee 0 = volatile, 1 = stable, anything else = none.
    function getPool(address tokenA, address tokenB, uint24 fee) external view returns (address) {
        return fee > 1 ? address(0) : _getPool[tokenA][tokenB][fee == 1];
    }

    function createPool(address tokenA, address tokenB, uint24 fee) external returns (address) {
        if (fee > 1) revert FeeInvalid();
        return createPool(tokenA, tokenB, fee == 1);
    }

    function createPool(address tokenA, address tokenB, bool stable) public returns (address pool) {
        if (tokenA == tokenB) revert SameAddress();
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        if (token0 == address(0)) revert ZeroAddress();
        if (_getPool[token0][token1][stable] != address(0)) revert PoolAlreadyExists();
        bytes32 salt = keccak256(abi.encodePacked(token0, token1, stable));
        pool = Clones.cloneDeterministic(implementation, salt);
        IAerodromePoolStandIn(pool).initialize(token0, token1, stable);
        _getPool[token0][token1][stable] = pool;
        _getPool[token1][token0][stable] = pool;
        allPools.push(pool);
        isPool[pool] = true;
        emit PoolCreated(token0, token1, stable, pool, allPools.length);
    }
}
