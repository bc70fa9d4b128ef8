// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/**
 * UTIL, agentdesk's utility token. The whole fixed supply (100,000,000,000 UTIL) is minted once, to
 * `treasury`, in the constructor; there is no mint function. Burning is a plain transfer to
 * 0x000000000000000000000000000000000000dEaD, so circulating supply = totalSupply - balanceOf(dead).
 */
contract UtilToken is ERC20, ERC20Permit {
    uint256 public constant MAX_SUPPLY = 100_000_000_000e18;
    address public constant BURN_ADDRESS = 0x000000000000000000000000000000000000dEaD;

    constructor(address treasury) ERC20("agentdesk Utility", "UTIL") ERC20Permit("agentdesk Utility") {
        _mint(treasury, MAX_SUPPLY);
    }

    function circulatingSupply() external view returns (uint256) {
        return totalSupply() - balanceOf(BURN_ADDRESS);
    }
}
