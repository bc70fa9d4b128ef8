// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {BaseCode} from "../common/BaseCode.sol";

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IAerodromePoolStandIn} from "./AerodromeInterfacesStandIn.sol";

interface IAerodromeFeeSource {
    function getFee(address pool, bool stable) external view returns (uint256);
}

/// @title Aerodrome volatile pool stand-in (devnet only): ERC-20 LP token with x*y=k
/// @notice Cloned (EIP-1167, CREATE2) by AerodromePoolFactoryStandIn like the real Pool. Same mint/burn/swap/sync
/// surface and events (Mint, Burn, Swap, Sync, Fees) as aerodrome-finance/contracts Pool.sol.
/// @dev Deviations: only volatile (x*y=k) curves. The swap fee (factory.getFee, 30 bps = 0.3% for volatile pools,
/// denominator 10,000) stays in the reserves, Uniswap-v2 style, instead of going to a PoolFees contract claimable
/// with claimFees(); no TWAP observations; flash-swap callbacks (non-empty `data`) are not supported.
contract AerodromePoolStandIn is ERC20, IAerodromePoolStandIn {
    using SafeERC20 for IERC20Metadata;

    error NotImplemented(bytes4 selector);
    error StableNotSupported();
    error FlashSwapNotSupported();
    error Locked();

    uint256 internal constant MINIMUM_LIQUIDITY = 1e3;
    uint256 internal constant FEE_DENOMINATOR = 10_000;

    address public token0;
    address public token1;
    address public factory;
    bool public stable;
    uint256 public reserve0;
    uint256 public reserve1;
    uint256 public blockTimestampLast;
    uint256 internal _decimals0;
    uint256 internal _decimals1;
    string internal _poolName;
    string internal _poolSymbol;
    uint256 internal _unlocked = 1;

    constructor() ERC20("", "") {
        factory = address(this); // the implementation itself can never be initialized
    }

    modifier lock() {
        if (_unlocked != 1) revert Locked();
        _unlocked = 2;
        _;
        _unlocked = 1;
    }

    function initialize(address _token0, address _token1, bool _stable) external {
        if (factory != address(0)) revert FactoryAlreadySet();
        if (_stable) revert StableNotSupported();
        factory = msg.sender;
        _unlocked = 1;
        (token0, token1, stable) = (_token0, _token1, _stable);
        string memory symbol0 = IERC20Metadata(_token0).symbol();
        string memory symbol1 = IERC20Metadata(_token1).symbol();
        _poolName = string.concat("VolatileV2 AMM - ", symbol0, "/", symbol1);
        _poolSymbol = string.concat("vAMM-", symbol0, "/", symbol1);
        _decimals0 = 10 ** IERC20Metadata(_token0).decimals();
        _decimals1 = 10 ** IERC20Metadata(_token1).decimals();
    }

    function name() public view override returns (string memory) {
        return _poolName;
    }

    function symbol() public view override returns (string memory) {
        return _poolSymbol;
    }

    function metadata()
        external
        view
        returns (uint256 dec0, uint256 dec1, uint256 r0, uint256 r1, bool st, address t0, address t1)
    {
        return (_decimals0, _decimals1, reserve0, reserve1, stable, token0, token1);
    }

    function tokens() external view returns (address, address) {
        return (token0, token1);
    }

    function getReserves() public view returns (uint256, uint256, uint256) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    function getK() external view returns (uint256) {
        return reserve0 * reserve1;
    }

    function getAmountOut(uint256 amountIn, address tokenIn) public view returns (uint256) {
        (uint256 r0, uint256 r1) = (reserve0, reserve1);
        amountIn -= amountIn * IAerodromeFeeSource(factory).getFee(address(this), stable) / FEE_DENOMINATOR;
        (uint256 reserveIn, uint256 reserveOut) = tokenIn == token0 ? (r0, r1) : (r1, r0);
        return amountIn * reserveOut / (reserveIn + amountIn);
    }

    function mint(address to) external lock returns (uint256 liquidity) {
        (uint256 r0, uint256 r1) = (reserve0, reserve1);
        uint256 balance0 = IERC20Metadata(token0).balanceOf(address(this));
        uint256 balance1 = IERC20Metadata(token1).balanceOf(address(this));
        uint256 amount0 = balance0 - r0;
        uint256 amount1 = balance1 - r1;
        uint256 supply = totalSupply();
        if (supply == 0) {
            liquidity = Math.sqrt(amount0 * amount1) - MINIMUM_LIQUIDITY;
            _mint(address(1), MINIMUM_LIQUIDITY); // permanently locked, like the real pool
        } else {
            liquidity = Math.min(amount0 * supply / r0, amount1 * supply / r1);
        }
        if (liquidity == 0) revert InsufficientLiquidityMinted();
        _mint(to, liquidity);
        _update(balance0, balance1);
        emit Mint(msg.sender, amount0, amount1);
    }

    function burn(address to) external lock returns (uint256 amount0, uint256 amount1) {
        (address t0, address t1) = (token0, token1);
        uint256 balance0 = IERC20Metadata(t0).balanceOf(address(this));
        uint256 balance1 = IERC20Metadata(t1).balanceOf(address(this));
        uint256 liquidity = balanceOf(address(this));
        uint256 supply = totalSupply();
        amount0 = liquidity * balance0 / supply;
        amount1 = liquidity * balance1 / supply;
        if (amount0 == 0 || amount1 == 0) revert InsufficientLiquidityBurned();
        _burn(address(this), liquidity);
        _safeTransfer(t0, to, amount0);
        _safeTransfer(t1, to, amount1);
        _update(IERC20Metadata(t0).balanceOf(address(this)), IERC20Metadata(t1).balanceOf(address(this)));
        emit Burn(msg.sender, to, amount0, amount1);
    }

    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external lock {
        if (amount0Out == 0 && amount1Out == 0) revert InsufficientOutputAmount();
        if (data.length > 0) revert FlashSwapNotSupported();
        (uint256 r0, uint256 r1) = (reserve0, reserve1);
        if (amount0Out >= r0 || amount1Out >= r1) revert InsufficientLiquidity();
        (address t0, address t1) = (token0, token1);
        if (to == t0 || to == t1) revert InvalidTo();
        if (amount0Out > 0) _safeTransfer(t0, to, amount0Out);
        if (amount1Out > 0) _safeTransfer(t1, to, amount1Out);
        _settleSwap(r0 - amount0Out, r1 - amount1Out, amount0Out, amount1Out, to);
    }

    /// @dev `left0/left1` = reserves minus what was sent out; anything above them was paid in.
    function _settleSwap(uint256 left0, uint256 left1, uint256 amount0Out, uint256 amount1Out, address to) internal {
        uint256 balance0 = IERC20Metadata(token0).balanceOf(address(this));
        uint256 balance1 = IERC20Metadata(token1).balanceOf(address(this));
        uint256 amount0In = balance0 > left0 ? balance0 - left0 : 0;
        uint256 amount1In = balance1 > left1 ? balance1 - left1 : 0;
        if (amount0In == 0 && amount1In == 0) revert InsufficientInputAmount();
        uint256 fee = IAerodromeFeeSource(factory).getFee(address(this), stable);
        // As the real Pool: the fee is floor(amountIn * fee / 10,000), the amount getAmountOut takes off, and
        // K is checked on the balances without it (the real Pool has sent it to PoolFees by then; here it
        // stays in the reserves after the check).
        uint256 fee0 = amount0In * fee / FEE_DENOMINATOR;
        uint256 fee1 = amount1In * fee / FEE_DENOMINATOR;
        if ((balance0 - fee0) * (balance1 - fee1) < reserve0 * reserve1) revert K();
        emit Fees(msg.sender, fee0, fee1);
        _update(balance0, balance1);
        emit Swap(msg.sender, to, amount0In, amount1In, amount0Out, amount1Out);
    }

    function skim(address to) external lock {
        (address t0, address t1) = (token0, token1);
        _safeTransfer(t0, to, IERC20Metadata(t0).balanceOf(address(this)) - reserve0);
        _safeTransfer(t1, to, IERC20Metadata(t1).balanceOf(address(this)) - reserve1);
    }

    function sync() external lock {
        _update(IERC20Metadata(token0).balanceOf(address(this)), IERC20Metadata(token1).balanceOf(address(this)));
    }

    function _update(uint256 balance0, uint256 balance1) internal {
        reserve0 = balance0;
        reserve1 = balance1;
        blockTimestampLast = block.timestamp;
        emit Sync(balance0, balance1);
    }

    fallback() external payable {
        revert NotImplemented(msg.sig);
    }

    /// @dev As the real Pool's `_safeTransfer`: `require(token.code.length > 0)` first, which refuses Base's
    /// codeless B20 stock tokens (BaseCode).
    function _safeTransfer(address token, address to, uint256 value) internal {
        require(BaseCode.hasCode(token));
        IERC20Metadata(token).safeTransfer(to, value);
    }
}
