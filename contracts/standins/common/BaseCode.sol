// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice Whether an account has code ON BASE, for stand-ins whose real source checks `code.length`.
/// @dev Coinbase's tokenized stocks are B20 precompiles at 0xb2 followed by ten zero bytes: on Base their
/// `extcodesize` is 0, while the devnet's stock stand-ins must carry bytecode to run. So the real Aerodrome
/// Router's and Pool's `require(token.code.length > 0)` refuses them on Base, and the stand-ins refuse them
/// here too, through this check (see docs/devnet.md, "B20 stocks").
library BaseCode {
    uint160 internal constant B20_PREFIX = uint160(0xb2) << 80;

    function isB20(address account) internal pure returns (bool) {
        return (uint160(account) >> 72) == B20_PREFIX;
    }

    function hasCode(address account) internal view returns (bool) {
        return account.code.length > 0 && !isB20(account);
    }
}
