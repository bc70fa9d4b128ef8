// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {StandInBase} from "../common/StandInBase.sol";
import {BaseCode} from "../common/BaseCode.sol";

/// @dev WETH9's deposit/withdraw, as Aerodrome's Router uses them.
interface IWETHStandIn {
    function deposit() external payable;
    function withdraw(uint256 amount) external;
    function transfer(address to, uint256 amount) external returns (bool);
}
import {
    IAerodromePoolFactoryStandIn,
    IAerodromePoolStandIn,
    IAerodromeRouterStandIn
} from "./AerodromeInterfacesStandIn.sol";

/// @title Aerodrome Router stand-in (devnet only), etched at 0xcF77a3Ba9A5CA399B7c97c74d54e5b1Beb874E43
/// @notice Same signatures as aerodrome-finance/contracts Router.sol for volatile pools: addLiquidity,
/// removeLiquidity, swapExactTokensForTokens with Route{from,to,stable,factory}, quoteAddLiquidity,
/// quoteRemoveLiquidity, getAmountsOut, getReserves, poolFor, sortTokens, and the ETH variants of liquidity
/// (addLiquidityETH wraps msg.value into WETH and refunds the unused ETH; removeLiquidityETH unwraps the WETH
/// leg to `to`). Tokens move with real transferFrom.
/// @dev Deviations: only the default factory is "approved" (no FactoryRegistry); stable pools, ETH swaps,
/// fee-on-transfer variants and zaps are not implemented (they revert NotImplemented or StableNotSupported).
contract AerodromeRouterStandIn is StandInBase, IAerodromeRouterStandIn {
    using SafeERC20 for IERC20;

    error StableNotSupported();

    uint256 internal constant MINIMUM_LIQUIDITY = 1e3;
    address public constant ETHER = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;

    address public immutable defaultFactory;
    address public immutable factoryRegistry;
    address public immutable voter;
    address public immutable weth;

    constructor(address _factoryRegistry, address _factory, address _voter, address _weth) StandInBase(address(0)) {
        factoryRegistry = _factoryRegistry;
        defaultFactory = _factory;
        voter = _voter;
        weth = _weth;
    }

    modifier ensure(uint256 deadline) {
        if (deadline < block.timestamp) revert Expired();
        _;
    }

    function sortTokens(address tokenA, address tokenB) public pure returns (address token0, address token1) {
        if (tokenA == tokenB) revert SameAddresses();
        (token0, token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        if (token0 == address(0)) revert ZeroAddress();
    }

    function poolFor(address tokenA, address tokenB, bool stable, address _factory) public view returns (address) {
        address factory = _factory == address(0) ? defaultFactory : _factory;
        if (factory != defaultFactory) revert PoolFactoryDoesNotExist();
        (address token0, address token1) = sortTokens(tokenA, tokenB);
        bytes32 salt = keccak256(abi.encodePacked(token0, token1, stable));
        return Clones.predictDeterministicAddress(IAerodromePoolFactoryStandIn(factory).implementation(), salt, factory);
    }

    function getReserves(address tokenA, address tokenB, bool stable, address _factory)
        public
        view
        returns (uint256 reserveA, uint256 reserveB)
    {
        (address token0,) = sortTokens(tokenA, tokenB);
        (uint256 reserve0, uint256 reserve1,) = IAerodromePoolStandIn(poolFor(tokenA, tokenB, stable, _factory)).getReserves();
        (reserveA, reserveB) = tokenA == token0 ? (reserve0, reserve1) : (reserve1, reserve0);
    }

    function getAmountsOut(uint256 amountIn, Route[] memory routes) public view returns (uint256[] memory amounts) {
        if (routes.length < 1) revert InvalidPath();
        amounts = new uint256[](routes.length + 1);
        amounts[0] = amountIn;
        for (uint256 i = 0; i < routes.length; i++) {
            if (routes[i].stable) revert StableNotSupported();
            address factory = routes[i].factory == address(0) ? defaultFactory : routes[i].factory;
            address pool = poolFor(routes[i].from, routes[i].to, routes[i].stable, factory);
            if (IAerodromePoolFactoryStandIn(factory).isPool(pool)) {
                amounts[i + 1] = IAerodromePoolStandIn(pool).getAmountOut(amounts[i], routes[i].from);
            }
        }
    }

    function quoteAddLiquidity(
        address tokenA,
        address tokenB,
        bool stable,
        address _factory,
        uint256 amountADesired,
        uint256 amountBDesired
    ) external view returns (uint256 amountA, uint256 amountB, uint256 liquidity) {
        if (stable) revert StableNotSupported();
        address pool = IAerodromePoolFactoryStandIn(_factory).getPool(tokenA, tokenB, stable);
        (uint256 reserveA, uint256 reserveB) = (0, 0);
        uint256 supply;
        if (pool != address(0)) {
            supply = IERC20(pool).totalSupply();
            (reserveA, reserveB) = getReserves(tokenA, tokenB, stable, _factory);
        }
        if (reserveA == 0 && reserveB == 0) {
            (amountA, amountB) = (amountADesired, amountBDesired);
            liquidity = Math.sqrt(amountA * amountB) - MINIMUM_LIQUIDITY;
        } else {
            uint256 amountBOptimal = quoteLiquidity(amountADesired, reserveA, reserveB);
            if (amountBOptimal <= amountBDesired) {
                (amountA, amountB) = (amountADesired, amountBOptimal);
            } else {
                uint256 amountAOptimal = quoteLiquidity(amountBDesired, reserveB, reserveA);
                (amountA, amountB) = (amountAOptimal, amountBDesired);
            }
            liquidity = Math.min(amountA * supply / reserveA, amountB * supply / reserveB);
        }
    }

    function quoteRemoveLiquidity(address tokenA, address tokenB, bool stable, address _factory, uint256 liquidity)
        external
        view
        returns (uint256 amountA, uint256 amountB)
    {
        address pool = IAerodromePoolFactoryStandIn(_factory).getPool(tokenA, tokenB, stable);
        if (pool == address(0)) return (0, 0);
        (uint256 reserveA, uint256 reserveB) = getReserves(tokenA, tokenB, stable, _factory);
        uint256 supply = IERC20(pool).totalSupply();
        amountA = liquidity * reserveA / supply;
        amountB = liquidity * reserveB / supply;
    }

    function quoteLiquidity(uint256 amountA, uint256 reserveA, uint256 reserveB) public pure returns (uint256) {
        if (amountA == 0) revert InsufficientAmount();
        if (reserveA == 0 || reserveB == 0) revert InsufficientLiquidity();
        return amountA * reserveB / reserveA;
    }

    function addLiquidity(
        address tokenA,
        address tokenB,
        bool stable,
        uint256 amountADesired,
        uint256 amountBDesired,
        uint256 amountAMin,
        uint256 amountBMin,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity) {
        (amountA, amountB) = _addLiquidity(tokenA, tokenB, stable, amountADesired, amountBDesired, amountAMin, amountBMin);
        liquidity = _depositAndMint(tokenA, tokenB, stable, amountA, amountB, to);
    }

    function addLiquidityETH(
        address token,
        bool stable,
        uint256 amountTokenDesired,
        uint256 amountTokenMin,
        uint256 amountETHMin,
        address to,
        uint256 deadline
    ) external payable ensure(deadline) returns (uint256 amountToken, uint256 amountETH, uint256 liquidity) {
        (amountToken, amountETH) =
            _addLiquidity(token, weth, stable, amountTokenDesired, msg.value, amountTokenMin, amountETHMin);
        address pool = poolFor(token, weth, stable, defaultFactory);
        _safeTransferFrom(token, msg.sender, pool, amountToken);
        IWETHStandIn(weth).deposit{value: amountETH}();
        assert(IWETHStandIn(weth).transfer(pool, amountETH));
        liquidity = IAerodromePoolStandIn(pool).mint(to);
        // As the real Router: the ETH the pool did not take goes back to the sender.
        if (msg.value > amountETH) _safeTransferETH(msg.sender, msg.value - amountETH);
    }

    function removeLiquidityETH(
        address token,
        bool stable,
        uint256 liquidity,
        uint256 amountTokenMin,
        uint256 amountETHMin,
        address to,
        uint256 deadline
    ) public ensure(deadline) returns (uint256 amountToken, uint256 amountETH) {
        (amountToken, amountETH) =
            removeLiquidity(token, weth, stable, liquidity, amountTokenMin, amountETHMin, address(this), deadline);
        _safeTransfer(token, to, amountToken);
        IWETHStandIn(weth).withdraw(amountETH);
        _safeTransferETH(to, amountETH);
    }

    /// @dev Only WETH's withdraw may send ETH here (the real Router's rule).
    receive() external payable {
        if (msg.sender != weth) revert OnlyWETH();
    }

    function _safeTransferETH(address to, uint256 value) internal {
        (bool success,) = to.call{value: value}(new bytes(0));
        if (!success) revert ETHTransferFailed();
    }

    function _depositAndMint(address tokenA, address tokenB, bool stable, uint256 amountA, uint256 amountB, address to)
        internal
        returns (uint256)
    {
        address pool = poolFor(tokenA, tokenB, stable, defaultFactory);
        _safeTransferFrom(tokenA, msg.sender, pool, amountA);
        _safeTransferFrom(tokenB, msg.sender, pool, amountB);
        return IAerodromePoolStandIn(pool).mint(to);
    }

    function removeLiquidity(
        address tokenA,
        address tokenB,
        bool stable,
        uint256 liquidity,
        uint256 amountAMin,
        uint256 amountBMin,
        address to,
        uint256 deadline
    ) public ensure(deadline) returns (uint256 amountA, uint256 amountB) {
        (amountA, amountB) = _burnTo(tokenA, tokenB, stable, liquidity, to);
        if (amountA < amountAMin) revert InsufficientAmountA();
        if (amountB < amountBMin) revert InsufficientAmountB();
    }

    function _burnTo(address tokenA, address tokenB, bool stable, uint256 liquidity, address to)
        internal
        returns (uint256, uint256)
    {
        address pool = poolFor(tokenA, tokenB, stable, defaultFactory);
        _safeTransferFrom(pool, msg.sender, pool, liquidity);
        (uint256 amount0, uint256 amount1) = IAerodromePoolStandIn(pool).burn(to);
        (address token0,) = sortTokens(tokenA, tokenB);
        return tokenA == token0 ? (amount0, amount1) : (amount1, amount0);
    }

    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        Route[] calldata routes,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256[] memory amounts) {
        amounts = getAmountsOut(amountIn, routes);
        if (amounts[amounts.length - 1] < amountOutMin) revert InsufficientOutputAmount();
        address firstPool = poolFor(routes[0].from, routes[0].to, routes[0].stable, routes[0].factory);
        if (!IAerodromePoolFactoryStandIn(_factoryOf(routes[0])).isPool(firstPool)) revert PoolDoesNotExist();
        _safeTransferFrom(routes[0].from, msg.sender, firstPool, amountIn);
        _swap(amounts, routes, to);
    }

    /// @dev As the real Router's `_safeTransferFrom`: `require(token.code.length > 0)` first, which refuses
    /// Base's codeless B20 stock tokens (BaseCode), then the transfer.
    function _safeTransferFrom(address token, address from, address to, uint256 value) internal {
        require(BaseCode.hasCode(token));
        IERC20(token).safeTransferFrom(from, to, value);
    }

    function _safeTransfer(address token, address to, uint256 value) internal {
        require(BaseCode.hasCode(token));
        IERC20(token).safeTransfer(to, value);
    }

    function _factoryOf(Route calldata route) internal view returns (address) {
        return route.factory == address(0) ? defaultFactory : route.factory;
    }

    function _swap(uint256[] memory amounts, Route[] calldata routes, address _to) internal {
        for (uint256 i = 0; i < routes.length; i++) {
            (address token0,) = sortTokens(routes[i].from, routes[i].to);
            uint256 amountOut = amounts[i + 1];
            (uint256 amount0Out, uint256 amount1Out) =
                routes[i].from == token0 ? (uint256(0), amountOut) : (amountOut, uint256(0));
            address to = i < routes.length - 1
                ? poolFor(routes[i + 1].from, routes[i + 1].to, routes[i + 1].stable, routes[i + 1].factory)
                : _to;
            IAerodromePoolStandIn(poolFor(routes[i].from, routes[i].to, routes[i].stable, routes[i].factory)).swap(
                amount0Out, amount1Out, to, new bytes(0)
            );
        }
    }

    function _addLiquidity(
        address tokenA,
        address tokenB,
        bool stable,
        uint256 amountADesired,
        uint256 amountBDesired,
        uint256 amountAMin,
        uint256 amountBMin
    ) internal returns (uint256 amountA, uint256 amountB) {
        if (amountADesired < amountAMin) revert InsufficientAmountADesired();
        if (amountBDesired < amountBMin) revert InsufficientAmountBDesired();
        address pool = IAerodromePoolFactoryStandIn(defaultFactory).getPool(tokenA, tokenB, stable);
        if (pool == address(0)) {
            IAerodromePoolFactoryStandIn(defaultFactory).createPool(tokenA, tokenB, stable);
        }
        (uint256 reserveA, uint256 reserveB) = getReserves(tokenA, tokenB, stable, defaultFactory);
        if (reserveA == 0 && reserveB == 0) {
            return (amountADesired, amountBDesired);
        }
        uint256 amountBOptimal = quoteLiquidity(amountADesired, reserveA, reserveB);
        if (amountBOptimal <= amountBDesired) {
            if (amountBOptimal < amountBMin) revert InsufficientAmountB();
            return (amountADesired, amountBOptimal);
        }
        uint256 amountAOptimal = quoteLiquidity(amountBDesired, reserveB, reserveA);
        if (amountAOptimal > amountADesired) revert InsufficientAmountAOptimal();
        if (amountAOptimal < amountAMin) revert InsufficientAmountA();
        return (amountAOptimal, amountBDesired);
    }
}
