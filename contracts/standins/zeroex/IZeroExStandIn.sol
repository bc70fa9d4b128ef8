// SPDX-License-Identifier: MIT
pragma solidity ^0.8.25;

/// @dev 0xProject/0x-settler src/allowanceholder/IAllowanceHolder.sol: same signatures.
interface IAllowanceHolderStandIn {
    /// Stores a transient allowance for (`operator`, caller, `token`) = `amount`, then calls `target` with
    /// `data` followed by the caller's address (ERC-2771 style), and returns what `target` returned.
    function exec(address operator, address token, uint256 amount, address payable target, bytes calldata data)
        external
        payable
        returns (bytes memory result);

    /// Counterpart of `exec`: the registered `operator` spends the owner's transient allowance.
    function transferFrom(address token, address owner, address recipient, uint256 amount) external returns (bool);
}

/// @dev 0xProject/0x-settler: Settler.execute (taker-submitted) and ISettlerBase.AllowedSlippage, same layout.
interface ISettlerStandIn {
    struct AllowedSlippage {
        address payable recipient;
        address buyToken;
        uint256 minAmountOut;
    }

    function execute(AllowedSlippage calldata slippage, bytes[] calldata actions, bytes32 zid)
        external
        payable
        returns (bool);
}

/// @dev The subset of 0xProject/0x-settler ISettlerActions (bps-era signatures) the stand-in Settler runs.
interface ISettlerActionsStandIn {
    /// Permit2's ISignatureTransfer structs, as TRANSFER_FROM takes them.
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    /// Pull the taker's tokens; in the AllowanceHolder flow `sig` is empty and AllowanceHolder moves them.
    function TRANSFER_FROM(address recipient, PermitTransferFrom memory permit, bytes memory sig) external;

    /// Trade against a pool that follows approve + transferFrom(msg.sender): `bps` of Settler's balance of
    /// `sellToken` is approved to `pool` and written into `data` at byte `offset`, then `pool` is called.
    function BASIC(address sellToken, uint256 bps, address pool, uint256 offset, bytes calldata data) external;
}
