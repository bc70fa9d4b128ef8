// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

interface IERC20View {
    function balanceOf(address) external view returns (uint256);
}

/// Smart-wallet payers whose ERC-1271 answer depends on state that other settlements, or one switch,
/// change (issue 22 review: many payers' settlements reverted in one block).
/// Signature layout (not 65 bytes): [rounds (32)] [watched token (32)] [watched account (32)] [expected balance (32)].
/// Valid iff token.balanceOf(account) == expected, after `rounds` keccak rounds (to make the estimate large).
/// Invalid: burns all gas it is given, so the reverted settlement costs the whole estimate.
contract RaceWallet {
    function isValidSignature(bytes32 hash, bytes calldata sig) external view returns (bytes4) {
        uint256 rounds = uint256(bytes32(sig[0:32]));
        address token = address(uint160(uint256(bytes32(sig[32:64]))));
        address account = address(uint160(uint256(bytes32(sig[64:96]))));
        uint256 expected = uint256(bytes32(sig[96:128]));
        if (IERC20View(token).balanceOf(account) != expected) {
            while (gasleft() > 2_500) {}
            return 0xffffffff;
        }
        bytes32 acc = hash;
        for (uint256 i = 0; i < rounds; i++) acc = keccak256(abi.encode(acc, i));
        return acc == bytes32(type(uint256).max) ? bytes4(0) : bytes4(0x1626ba7e);
    }
}

/// A shared kill switch: one transaction turns every wallet reading it off.
contract Switch {
    bool public off;
    function set(bool v) external { off = v; }
}

contract SwitchedWallet {
    Switch public immutable sw;
    constructor(Switch s) { sw = s; }
    function isValidSignature(bytes32 hash, bytes calldata sig) external view returns (bytes4) {
        if (sw.off()) {
            while (gasleft() > 2_500) {}
            return 0xffffffff;
        }
        uint256 rounds = uint256(bytes32(sig[0:32]));
        bytes32 acc = hash;
        for (uint256 i = 0; i < rounds; i++) acc = keccak256(abi.encode(acc, i));
        return acc == bytes32(type(uint256).max) ? bytes4(0) : bytes4(0x1626ba7e);
    }
}

/// As an EIP-7702 delegate: accepts the EOA's own ECDSA signature bytes (ignores them) unless switched off.
contract SwitchedDelegate {
    Switch public immutable sw;
    uint256 public immutable rounds;
    constructor(Switch s, uint256 r) { sw = s; rounds = r; }
    function isValidSignature(bytes32 hash, bytes calldata) external view returns (bytes4) {
        if (sw.off()) {
            while (gasleft() > 2_500) {}
            return 0xffffffff;
        }
        bytes32 acc = hash;
        for (uint256 i = 0; i < rounds; i++) acc = keccak256(abi.encode(acc, i));
        return acc == bytes32(type(uint256).max) ? bytes4(0) : bytes4(0x1626ba7e);
    }
}
