// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

interface IERC20Like {
    function transfer(address to, uint256 value) external returns (bool);
}

/// @notice A smart-wallet payer as an attacker writes one (issue 22): its ERC-1271 check accepts any
/// signature unless `refusing`, after burning gas: a loop count taken from the signature (its first 32
/// bytes, unless it is a 65-byte ECDSA signature) plus `extraRounds` from storage. Its owner can switch
/// signatures off and sweep tokens out, to make settlements in flight revert. As an EIP-7702 delegate,
/// the EOA itself is the owner (`address(this)`) and storage starts zeroed: accepting, no extra rounds.
contract HostileWallet {
    address public immutable owner;
    bool public refusing;
    uint256 public extraRounds;

    constructor() {
        owner = msg.sender;
    }

    modifier onlyOwner() {
        require(msg.sender == owner || msg.sender == address(this), "owner");
        _;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (refusing) return 0xffffffff;
        uint256 rounds = extraRounds;
        if (signature.length >= 32 && signature.length != 65) rounds += uint256(bytes32(signature[:32]));
        bytes32 acc = hash;
        for (uint256 i = 0; i < rounds; i++) acc = keccak256(abi.encode(acc, i));
        // Uses `acc`, so the loop cannot be optimized away; never true in practice.
        return acc == bytes32(type(uint256).max) ? bytes4(0) : bytes4(0x1626ba7e);
    }

    function setRefusing(bool on) external onlyOwner {
        refusing = on;
    }

    function setExtraRounds(uint256 rounds) external onlyOwner {
        extraRounds = rounds;
    }

    function sweep(address token, address to, uint256 value) external onlyOwner {
        IERC20Like(token).transfer(to, value);
    }
}

/// @notice An honest smart wallet of one ECDSA owner (the shape of a plain ERC-1271 account): the
/// reference for what a smart-wallet settlement costs.
contract PlainSmartWallet {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}
