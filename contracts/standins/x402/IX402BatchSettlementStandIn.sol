// SPDX-License-Identifier: MIT
pragma solidity ^0.8.25;

/// @notice The external surface of x402's `x402BatchSettlement` (Base 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003),
/// written from x402's npm package (evm, 2.27.0): `batchSettlementABI` (src/batch-settlement/abi.ts) plus the events, errors and
/// public constants of the contract source (coinbase/x402 contracts/evm/src/x402BatchSettlement.sol). Struct
/// field order and widths are the ABI's, so the selectors solc derives here are the ones the package encodes.
interface IX402BatchSettlementStandIn {
    struct ChannelConfig {
        address payer;
        address payerAuthorizer;
        address receiver;
        address receiverAuthorizer;
        address token;
        uint40 withdrawDelay;
        bytes32 salt;
    }

    struct Voucher {
        ChannelConfig channel;
        uint128 maxClaimableAmount;
    }

    struct VoucherClaim {
        Voucher voucher;
        bytes signature;
        uint128 totalClaimed;
    }

    event ChannelCreated(bytes32 indexed channelId, ChannelConfig config);
    event ChannelClosed(bytes32 indexed channelId, ChannelConfig config);
    event Deposited(bytes32 indexed channelId, address indexed sender, uint128 amount, uint128 newBalance);
    event Claimed(bytes32 indexed channelId, address indexed sender, uint128 claimAmount, uint128 newTotalClaimed);
    event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount);
    event Refunded(bytes32 indexed channelId, address indexed sender, uint128 amount);
    event WithdrawInitiated(bytes32 indexed channelId, uint128 amount, uint40 finalizeAfter);
    event WithdrawFinalized(bytes32 indexed channelId, address indexed sender, uint128 amount);

    error InvalidChannel();
    error ZeroDeposit();
    error DepositOverflow();
    error InvalidSignature();
    error NotReceiverAuthorizer();
    error NotAuthorizedToClaim();
    error NotAuthorizedToRefund();
    error ClaimExceedsCeiling();
    error ClaimExceedsBalance();
    error WithdrawalAlreadyPending();
    error WithdrawalNotPending();
    error NotAuthorizedToFinalizeWithdraw();
    error WithdrawDelayNotElapsed();
    error NothingToWithdraw();
    error WithdrawAmountExceedsAvailable();
    error WithdrawDelayOutOfRange();
    error EmptyBatch();
    error DepositCollectionFailed();
    error InvalidCollector();
    error InvalidRefundNonce();
    error ZeroRefund();
    /// OpenZeppelin ReentrancyGuard(Transient)'s error, which the real contract inherits.
    error ReentrancyGuardReentrantCall();

    function multicall(bytes[] calldata data) external returns (bytes[] memory results);
    function deposit(ChannelConfig calldata config, uint128 amount, address collector, bytes calldata collectorData)
        external;
    function claim(VoucherClaim[] calldata voucherClaims) external;
    function claimWithSignature(VoucherClaim[] calldata voucherClaims, bytes calldata authorizerSignature) external;
    function settle(address receiver, address token) external;
    function initiateWithdraw(ChannelConfig calldata config, uint128 amount) external;
    function finalizeWithdraw(ChannelConfig calldata config) external;
    function refund(ChannelConfig calldata config, uint128 amount) external;
    function refundWithSignature(
        ChannelConfig calldata config,
        uint128 amount,
        uint256 nonce,
        bytes calldata receiverAuthorizerSignature
    ) external;

    function CHANNEL_CONFIG_TYPEHASH() external view returns (bytes32);
    function getChannelId(ChannelConfig calldata config) external view returns (bytes32);
    function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) external view returns (bytes32);
    function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) external view returns (bytes32);
    function getClaimBatchDigest(VoucherClaim[] calldata voucherClaims) external view returns (bytes32);
    function channels(bytes32 channelId) external view returns (uint128 balance, uint128 totalClaimed);
    function pendingWithdrawals(bytes32 channelId) external view returns (uint128 amount, uint40 initiatedAt);
    function receivers(address receiver, address token)
        external
        view
        returns (uint128 totalClaimed, uint128 totalSettled);
    function refundNonce(bytes32 channelId) external view returns (uint256);
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
        );
}

/// @notice x402's pluggable deposit collector (contracts/evm/src/interfaces/IDepositCollector.sol): pulls
/// `amount` of `token` from `payer` into the calling settlement contract.
interface IDepositCollectorStandIn {
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData)
        external;
}
