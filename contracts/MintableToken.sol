// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/**
 * A plain ERC-20 with configurable decimals whose minter can mint and burn. Used for devnet tokens that only
 * need ERC-20 behaviour (cbBTC at its Base address, test tokens). Name and symbol live in storage, so the
 * contract keeps them when etched elsewhere.
 */
contract MintableToken is ERC20, ERC20Permit {
    uint8 private immutable _decimals;
    address public minter;

    error NotMinter(address caller);

    event MinterChanged(address indexed newMinter);

    constructor(string memory name_, string memory symbol_, uint8 decimals_, address minter_)
        ERC20(name_, symbol_)
        ERC20Permit(name_)
    {
        _decimals = decimals_;
        minter = minter_;
    }

    modifier onlyMinter() {
        if (msg.sender != minter) revert NotMinter(msg.sender);
        _;
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    function mint(address to, uint256 amount) external onlyMinter {
        _mint(to, amount);
    }

    function burn(address from, uint256 amount) external onlyMinter {
        _burn(from, amount);
    }

    function setMinter(address newMinter) external onlyMinter {
        minter = newMinter;
        emit MinterChanged(newMinter);
    }
}
