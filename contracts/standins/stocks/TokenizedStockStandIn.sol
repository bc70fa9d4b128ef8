// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";

/// @title Coinbase tokenized stock (B20 asset) stand-in, e.g. AAPLc (devnet only)
/// @notice On Base these are precompiles at 0xb2000000000000000000…; here an ERC-20 is etched at the same address.
/// 8 decimals. `balanceOf` returns raw shares; the economic ("scaled") amount is raw x multiplier / 1e18, where the
/// 1e18-scaled multiplier (alias of ERC-8056 `uiMultiplier()`) accrues dividends and splits.
/// @dev Deviations: transfers are not policy-gated (no sanctions/eligibility checks); the admin changes the
/// multiplier immediately (no announcement window) and can pause transfers (mirrored by the registry's `paused`).
contract TokenizedStockStandIn is ERC20, Pausable {
    error NotAdmin();

    event MultiplierUpdated(uint256 oldMultiplier, uint256 newMultiplier);

    uint256 public constant WAD_PRECISION = 1e18;

    address public admin;
    uint256 public multiplier;

    constructor(string memory name_, string memory symbol_, address admin_, uint256 multiplier_)
        ERC20(name_, symbol_)
    {
        admin = admin_;
        multiplier = multiplier_;
        emit MultiplierUpdated(0, multiplier_);
    }

    modifier onlyAdmin() {
        if (msg.sender != admin) revert NotAdmin();
        _;
    }

    function decimals() public pure override returns (uint8) {
        return 8;
    }

    /// @notice ERC-8056 name of `multiplier()`.
    function uiMultiplier() external view returns (uint256) {
        return multiplier;
    }

    function scaledBalanceOf(address account) external view returns (uint256) {
        return balanceOf(account) * multiplier / WAD_PRECISION;
    }

    function toScaledBalance(uint256 rawBalance) external view returns (uint256) {
        return rawBalance * multiplier / WAD_PRECISION;
    }

    function toRawBalance(uint256 scaledBalance) external view returns (uint256) {
        return scaledBalance * WAD_PRECISION / multiplier;
    }

    // ------------------------------------------------------------------ admin (stand-in only)

    function setMultiplier(uint256 newMultiplier) external onlyAdmin {
        emit MultiplierUpdated(multiplier, newMultiplier);
        multiplier = newMultiplier;
    }

    function mint(address to, uint256 amount) external onlyAdmin {
        _mint(to, amount);
    }

    function setPaused(bool paused_) external onlyAdmin {
        if (paused_) _pause();
        else _unpause();
    }

    function _update(address from, address to, uint256 value) internal override whenNotPaused {
        super._update(from, to, value);
    }

    fallback() external payable {
        revert StandInNotImplemented(msg.sig);
    }

    error StandInNotImplemented(bytes4 selector);
}
