// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice Shared plumbing for devnet stand-ins of real Base protocols (see /work/shared/reference/devnet.md §4).
/// @dev Any selector the stand-in does not implement reverts loudly with `NotImplemented(msg.sig)` instead of
/// silently succeeding. `admin` is the devnet deployer; it configures prices, pairs, multipliers, keepers.
abstract contract StandInBase {
    error NotImplemented(bytes4 selector);
    error NotAdmin();

    event AdminTransferred(address indexed previousAdmin, address indexed newAdmin);

    address public admin;

    constructor(address _admin) {
        admin = _admin;
        emit AdminTransferred(address(0), _admin);
    }

    modifier onlyAdmin() {
        if (msg.sender != admin) revert NotAdmin();
        _;
    }

    function transferAdmin(address newAdmin) external onlyAdmin {
        emit AdminTransferred(admin, newAdmin);
        admin = newAdmin;
    }

    fallback() external payable virtual {
        revert NotImplemented(msg.sig);
    }
}
