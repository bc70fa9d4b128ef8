// SPDX-License-Identifier: MIT
pragma solidity ^0.8.25;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {StandInBase} from "../common/StandInBase.sol";
import {IDepositCollectorStandIn, IX402BatchSettlementStandIn} from "./IX402BatchSettlementStandIn.sol";

/// @title x402BatchSettlement stand-in (devnet only), etched at 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003
/// @notice Unidirectional payment channels for x402's `batch-settlement` scheme, with the real contract's ABI,
/// events, custom errors and EIP-712 domain ("x402 Batch Settlement", "1", chainId, this address) and types, so
/// x402's npm package (evm) batch-settlement client, server and facilitator run against it unchanged. Written for agentdesk's
/// devnet from the published ABI and the behaviour described in coinbase/x402 (scheme spec and contract docs):
/// - a channel is identified by the EIP-712 hash of its immutable ChannelConfig (so ids differ per chain and
///   per deployment, exactly as the package's computeChannelId);
/// - `deposit` lets a collector pull the tokens and then insists this contract's balance grew by exactly
///   `amount` (a failed or fee-on-transfer pull reverts DepositCollectionFailed);
/// - claims carry a cumulative `totalClaimed`: a row at or below what is recorded is skipped, not reverted, so a
///   replayed batch is a no-op; a row above its voucher's ceiling or above the channel's balance reverts;
/// - `settle` sweeps everything claimed for (receiver, token) in one transfer;
/// - cooperative refunds (`refund` by the receiver side, `refundWithSignature` by anyone holding a
///   receiverAuthorizer signature over the current refund nonce) return unclaimed escrow and always advance the
///   nonce; the payer's escape hatch is `initiateWithdraw` + `finalizeWithdraw` after the channel's delay.
/// @dev Deviations from the real contract: unknown selectors revert NotImplemented(selector) (StandInBase) where
/// the real one reverts empty, the storage layout is this contract's own, and `admin` (zero, unused) exists.
contract X402BatchSettlementStandIn is StandInBase, IX402BatchSettlementStandIn {
    using SafeERC20 for IERC20;

    struct ChannelState {
        uint128 balance;
        uint128 totalClaimed;
    }

    struct WithdrawalState {
        uint128 amount;
        uint40 initiatedAt;
    }

    struct ReceiverState {
        uint128 totalClaimed;
        uint128 totalSettled;
    }

    uint40 public constant MIN_WITHDRAW_DELAY = 15 minutes;
    uint40 public constant MAX_WITHDRAW_DELAY = 30 days;

    bytes32 public constant CHANNEL_CONFIG_TYPEHASH = keccak256(
        "ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)"
    );
    bytes32 public constant VOUCHER_TYPEHASH = keccak256("Voucher(bytes32 channelId,uint128 maxClaimableAmount)");
    bytes32 public constant REFUND_TYPEHASH = keccak256("Refund(bytes32 channelId,uint256 nonce,uint128 amount)");
    bytes32 public constant CLAIM_ENTRY_TYPEHASH =
        keccak256("ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)");
    bytes32 public constant CLAIM_BATCH_TYPEHASH = keccak256(
        "ClaimBatch(ClaimEntry[] claims)ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)"
    );

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    string private constant DOMAIN_NAME = "x402 Batch Settlement";
    string private constant DOMAIN_VERSION = "1";
    /// Transient-storage slot of the reentrancy lock (the real contract uses ReentrancyGuardTransient).
    bytes32 private constant LOCK_SLOT = keccak256("agentdesk.standin.x402BatchSettlement.lock");

    mapping(bytes32 => ChannelState) private _channels;
    mapping(bytes32 => WithdrawalState) private _withdrawals;
    mapping(bytes32 => uint256) private _refundNonces;
    mapping(address => mapping(address => ReceiverState)) private _receivers;

    constructor() StandInBase(address(0)) {}

    modifier nonReentrant() {
        bytes32 slot = LOCK_SLOT;
        uint256 locked;
        assembly ("memory-safe") {
            locked := tload(slot)
        }
        if (locked != 0) revert ReentrancyGuardReentrantCall();
        assembly ("memory-safe") {
            tstore(slot, 1)
        }
        _;
        assembly ("memory-safe") {
            tstore(slot, 0)
        }
    }

    // ------------------------------------------------------------------ batching

    /// @notice Runs each call against this contract in order (OpenZeppelin Multicall semantics): the facilitator
    /// uses it to claim and refund a channel in one transaction. Any failing call reverts the whole batch.
    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i; i < data.length; ++i) {
            (bool ok, bytes memory ret) = address(this).delegatecall(data[i]);
            if (!ok) {
                assembly ("memory-safe") {
                    revert(add(ret, 0x20), mload(ret))
                }
            }
            results[i] = ret;
        }
    }

    // ------------------------------------------------------------------ deposits

    function deposit(ChannelConfig calldata config, uint128 amount, address collector, bytes calldata collectorData)
        external
        nonReentrant
    {
        if (
            config.payer == address(0) || config.receiver == address(0) || config.receiverAuthorizer == address(0)
                || config.token == address(0)
        ) revert InvalidChannel();
        if (config.withdrawDelay < MIN_WITHDRAW_DELAY || config.withdrawDelay > MAX_WITHDRAW_DELAY) {
            revert WithdrawDelayOutOfRange();
        }
        if (amount == 0) revert ZeroDeposit();
        if (collector == address(0)) revert InvalidCollector();

        bytes32 channelId = getChannelId(config);
        ChannelState storage ch = _channels[channelId];
        if (amount > type(uint128).max - ch.balance) revert DepositOverflow();
        bool opening = ch.balance == 0 && ch.totalClaimed == 0;
        ch.balance += amount;

        // The collector moves the tokens; what counts is what actually arrived here.
        IERC20 token = IERC20(config.token);
        uint256 before = token.balanceOf(address(this));
        IDepositCollectorStandIn(collector).collect(config.payer, config.token, amount, channelId, collectorData);
        if (token.balanceOf(address(this)) != before + amount) revert DepositCollectionFailed();

        if (opening) emit ChannelCreated(channelId, config);
        emit Deposited(channelId, msg.sender, amount, ch.balance);
    }

    // ------------------------------------------------------------------ claims and settlement

    /// @notice Claims sent by the channel's receiver or receiverAuthorizer themselves.
    function claim(VoucherClaim[] calldata voucherClaims) external nonReentrant {
        if (voucherClaims.length == 0) revert EmptyBatch();
        for (uint256 i; i < voucherClaims.length; ++i) {
            ChannelConfig calldata c = voucherClaims[i].voucher.channel;
            if (msg.sender != c.receiver && msg.sender != c.receiverAuthorizer) revert NotAuthorizedToClaim();
            _applyClaim(voucherClaims[i]);
        }
    }

    /// @notice Claims relayed by anyone, authorized by the first row's receiverAuthorizer signing the whole
    /// ClaimBatch; every row must name that same authorizer.
    function claimWithSignature(VoucherClaim[] calldata voucherClaims, bytes calldata authorizerSignature)
        external
        nonReentrant
    {
        if (voucherClaims.length == 0) revert EmptyBatch();
        address authorizer = voucherClaims[0].voucher.channel.receiverAuthorizer;
        if (!SignatureChecker.isValidSignatureNow(authorizer, getClaimBatchDigest(voucherClaims), authorizerSignature))
        {
            revert InvalidSignature();
        }
        for (uint256 i; i < voucherClaims.length; ++i) {
            if (voucherClaims[i].voucher.channel.receiverAuthorizer != authorizer) revert NotReceiverAuthorizer();
            _applyClaim(voucherClaims[i]);
        }
    }

    /// @notice Pays the receiver everything claimed for it in `token` and not yet paid; permissionless, and a
    /// no-op (no event) when nothing is owed.
    function settle(address receiver, address token) external nonReentrant {
        ReceiverState storage r = _receivers[receiver][token];
        uint128 owed = r.totalClaimed - r.totalSettled;
        if (owed == 0) return;
        r.totalSettled = r.totalClaimed;
        IERC20(token).safeTransfer(receiver, owed);
        emit Settled(receiver, token, msg.sender, owed);
    }

    // ------------------------------------------------------------------ payer's timed withdrawal

    function initiateWithdraw(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        if (msg.sender != config.payer && msg.sender != config.payerAuthorizer) revert InvalidChannel();
        if (amount == 0) revert NothingToWithdraw();
        bytes32 channelId = getChannelId(config);
        WithdrawalState storage w = _withdrawals[channelId];
        if (w.initiatedAt != 0) revert WithdrawalAlreadyPending();
        ChannelState storage ch = _channels[channelId];
        if (amount > ch.balance - ch.totalClaimed) revert WithdrawAmountExceedsAvailable();
        w.amount = amount;
        w.initiatedAt = uint40(block.timestamp);
        emit WithdrawInitiated(channelId, amount, uint40(block.timestamp) + config.withdrawDelay);
    }

    /// @notice Pays out a pending withdrawal once the delay has passed, capped by what is still unclaimed then
    /// (claims recorded during the delay take precedence).
    function finalizeWithdraw(ChannelConfig calldata config) external nonReentrant {
        if (msg.sender != config.payer && msg.sender != config.payerAuthorizer) {
            revert NotAuthorizedToFinalizeWithdraw();
        }
        bytes32 channelId = getChannelId(config);
        WithdrawalState storage w = _withdrawals[channelId];
        if (w.initiatedAt == 0) revert WithdrawalNotPending();
        if (block.timestamp < uint256(w.initiatedAt) + config.withdrawDelay) revert WithdrawDelayNotElapsed();

        ChannelState storage ch = _channels[channelId];
        uint128 free = ch.balance - ch.totalClaimed;
        uint128 paid = w.amount < free ? w.amount : free;
        delete _withdrawals[channelId];
        ch.balance -= paid;

        emit WithdrawFinalized(channelId, msg.sender, paid);
        if (ch.balance == 0 && ch.totalClaimed == 0) emit ChannelClosed(channelId, config);
        if (paid > 0) IERC20(config.token).safeTransfer(config.payer, paid);
    }

    // ------------------------------------------------------------------ cooperative refunds

    function refund(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        if (msg.sender != config.receiver && msg.sender != config.receiverAuthorizer) revert NotAuthorizedToRefund();
        _refund(config, amount);
    }

    function refundWithSignature(
        ChannelConfig calldata config,
        uint128 amount,
        uint256 nonce,
        bytes calldata receiverAuthorizerSignature
    ) external nonReentrant {
        bytes32 channelId = getChannelId(config);
        if (nonce != _refundNonces[channelId]) revert InvalidRefundNonce();
        bytes32 digest = getRefundDigest(channelId, nonce, amount);
        if (!SignatureChecker.isValidSignatureNow(config.receiverAuthorizer, digest, receiverAuthorizerSignature)) {
            revert InvalidSignature();
        }
        _refund(config, amount);
    }

    // ------------------------------------------------------------------ views

    function getChannelId(ChannelConfig calldata config) public view returns (bytes32) {
        return _typedDataHash(keccak256(abi.encode(CHANNEL_CONFIG_TYPEHASH, config)));
    }

    function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) public view returns (bytes32) {
        return _typedDataHash(keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, maxClaimableAmount)));
    }

    function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) public view returns (bytes32) {
        return _typedDataHash(keccak256(abi.encode(REFUND_TYPEHASH, channelId, nonce, amount)));
    }

    /// @notice EIP-712 digest of ClaimBatch{claims: ClaimEntry[]}: an array member hashes as the keccak of its
    /// elements' struct hashes laid end to end (keccak256("") for an empty batch).
    function getClaimBatchDigest(VoucherClaim[] calldata voucherClaims) public view returns (bytes32) {
        bytes memory packed = new bytes(32 * voucherClaims.length);
        for (uint256 i; i < voucherClaims.length; ++i) {
            bytes32 entry = keccak256(
                abi.encode(
                    CLAIM_ENTRY_TYPEHASH,
                    getChannelId(voucherClaims[i].voucher.channel),
                    voucherClaims[i].voucher.maxClaimableAmount,
                    voucherClaims[i].totalClaimed
                )
            );
            assembly ("memory-safe") {
                mstore(add(add(packed, 0x20), mul(i, 0x20)), entry)
            }
        }
        return _typedDataHash(keccak256(abi.encode(CLAIM_BATCH_TYPEHASH, keccak256(packed))));
    }

    function channels(bytes32 channelId) external view returns (uint128 balance, uint128 totalClaimed) {
        ChannelState storage ch = _channels[channelId];
        return (ch.balance, ch.totalClaimed);
    }

    function pendingWithdrawals(bytes32 channelId) external view returns (uint128 amount, uint40 initiatedAt) {
        WithdrawalState storage w = _withdrawals[channelId];
        return (w.amount, w.initiatedAt);
    }

    function receivers(address receiver, address token)
        external
        view
        returns (uint128 totalClaimed, uint128 totalSettled)
    {
        ReceiverState storage r = _receivers[receiver][token];
        return (r.totalClaimed, r.totalSettled);
    }

    function refundNonce(bytes32 channelId) external view returns (uint256) {
        return _refundNonces[channelId];
    }

    /// @notice ERC-5267, as OpenZeppelin's EIP712 base reports it for the real contract.
    function eip712Domain()
        external
        view
        returns (
            bytes1 fields,
            string memory name,
            string memory version,
            uint256 chainId,
            address verifyingContract,
            bytes32 salt,
            uint256[] memory extensions
        )
    {
        return (hex"0f", DOMAIN_NAME, DOMAIN_VERSION, block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    // ------------------------------------------------------------------ internals

    /// @dev The domain separator is computed on every call from the live chain id and address, so the code
    /// etched at the canonical address signs for that address without patching.
    function _typedDataHash(bytes32 structHash) private view returns (bytes32) {
        bytes32 separator = keccak256(
            abi.encode(
                DOMAIN_TYPEHASH, keccak256(bytes(DOMAIN_NAME)), keccak256(bytes(DOMAIN_VERSION)), block.chainid, address(this)
            )
        );
        return keccak256(abi.encodePacked(hex"1901", separator, structHash));
    }

    /// @dev Records one claim row. Totals are cumulative, so a stale row (at or below the recorded total) is
    /// skipped; otherwise the row must stay within its voucher's ceiling and the channel's balance, and the
    /// voucher must be signed by payerAuthorizer (an EOA key) or, when that is zero, by the payer (ECDSA or
    /// ERC-1271).
    function _applyClaim(VoucherClaim calldata vc) private {
        ChannelConfig calldata c = vc.voucher.channel;
        bytes32 channelId = getChannelId(c);
        ChannelState storage ch = _channels[channelId];
        uint128 newTotal = vc.totalClaimed;
        if (newTotal <= ch.totalClaimed) return;
        if (newTotal > vc.voucher.maxClaimableAmount) revert ClaimExceedsCeiling();
        if (newTotal > ch.balance) revert ClaimExceedsBalance();

        bytes32 digest = getVoucherDigest(channelId, vc.voucher.maxClaimableAmount);
        bool signed = c.payerAuthorizer != address(0)
            ? ECDSA.recover(digest, vc.signature) == c.payerAuthorizer
            : SignatureChecker.isValidSignatureNow(c.payer, digest, vc.signature);
        if (!signed) revert InvalidSignature();

        uint128 delta = newTotal - ch.totalClaimed;
        ch.totalClaimed = newTotal;
        _receivers[c.receiver][c.token].totalClaimed += delta;
        emit Claimed(channelId, msg.sender, delta, newTotal);
    }

    /// @dev Shared by both refund paths: the nonce advances first (even when nothing is left to refund), the
    /// amount is capped at the unclaimed escrow, and a pending withdrawal shrinks by what was refunded.
    function _refund(ChannelConfig calldata config, uint128 amount) private {
        if (amount == 0) revert ZeroRefund();
        bytes32 channelId = getChannelId(config);
        unchecked {
            _refundNonces[channelId] += 1;
        }
        ChannelState storage ch = _channels[channelId];
        uint128 free = ch.balance - ch.totalClaimed;
        uint128 paid = amount < free ? amount : free;
        if (paid == 0) return;
        ch.balance -= paid;

        WithdrawalState storage w = _withdrawals[channelId];
        if (w.initiatedAt != 0) {
            if (paid >= w.amount) delete _withdrawals[channelId];
            else w.amount -= paid;
        }

        emit Refunded(channelId, msg.sender, paid);
        if (ch.balance == 0 && ch.totalClaimed == 0) emit ChannelClosed(channelId, config);
        IERC20(config.token).safeTransfer(config.payer, paid);
    }
}
