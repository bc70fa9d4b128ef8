import { type Address, parseAbi } from 'viem'
import { X402_BATCH_SETTLEMENT } from '../../chain/addresses.js'
import type { DeployContext } from '../deployContext.js'
import type { DevnetModule } from './registry.js'

/**
 * x402's `batch-settlement` contracts at their canonical addresses: the x402BatchSettlement stand-in
 * (contracts/standins/x402/X402BatchSettlementStandIn.sol) and the EIP-3009 deposit collector that pulls a
 * payer's signed `receiveWithAuthorization` into it. Their bytecode is not on npm, so both are stand-ins with
 * the real ABI, events, errors and EIP-712 domain; @x402/evm's batch-settlement client, server and
 * facilitator run against them unchanged (test/devnet/standins/batchSettlement.test.ts). The Permit2
 * collector (0x4020425F…0005) is not deployed: the devnet has no Permit2, and the client's default deposit
 * is EIP-3009.
 */
export const BATCH_SETTLEMENT_ADDRESSES = X402_BATCH_SETTLEMENT

/**
 * The contract's ABI as x402 publishes it (@x402/evm src/batch-settlement/abi.ts, plus the events, errors and
 * constants of contracts/evm/src/x402BatchSettlement.sol) and the collector's own surface.
 */
export const batchSettlementAbi = parseAbi([
  'struct ChannelConfig { address payer; address payerAuthorizer; address receiver; address receiverAuthorizer; address token; uint40 withdrawDelay; bytes32 salt; }',
  'struct Voucher { ChannelConfig channel; uint128 maxClaimableAmount; }',
  'struct VoucherClaim { Voucher voucher; bytes signature; uint128 totalClaimed; }',
  'function multicall(bytes[] data) returns (bytes[] results)',
  'function deposit(ChannelConfig config, uint128 amount, address collector, bytes collectorData)',
  'function claim(VoucherClaim[] voucherClaims)',
  'function claimWithSignature(VoucherClaim[] voucherClaims, bytes authorizerSignature)',
  'function settle(address receiver, address token)',
  'function initiateWithdraw(ChannelConfig config, uint128 amount)',
  'function finalizeWithdraw(ChannelConfig config)',
  'function refund(ChannelConfig config, uint128 amount)',
  'function refundWithSignature(ChannelConfig config, uint128 amount, uint256 nonce, bytes receiverAuthorizerSignature)',
  'function getChannelId(ChannelConfig config) view returns (bytes32)',
  'function CHANNEL_CONFIG_TYPEHASH() view returns (bytes32)',
  'function MIN_WITHDRAW_DELAY() view returns (uint40)',
  'function MAX_WITHDRAW_DELAY() view returns (uint40)',
  'function channels(bytes32 channelId) view returns (uint128 balance, uint128 totalClaimed)',
  'function pendingWithdrawals(bytes32 channelId) view returns (uint128 amount, uint40 initiatedAt)',
  'function receivers(address receiver, address token) view returns (uint128 totalClaimed, uint128 totalSettled)',
  'function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) view returns (bytes32)',
  'function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) view returns (bytes32)',
  'function refundNonce(bytes32 channelId) view returns (uint256)',
  'function getClaimBatchDigest(VoucherClaim[] voucherClaims) view returns (bytes32)',
  'function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)',
  'event ChannelCreated(bytes32 indexed channelId, ChannelConfig config)',
  'event ChannelClosed(bytes32 indexed channelId, ChannelConfig config)',
  'event Deposited(bytes32 indexed channelId, address indexed sender, uint128 amount, uint128 newBalance)',
  'event Claimed(bytes32 indexed channelId, address indexed sender, uint128 claimAmount, uint128 newTotalClaimed)',
  'event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount)',
  'event Refunded(bytes32 indexed channelId, address indexed sender, uint128 amount)',
  'event WithdrawInitiated(bytes32 indexed channelId, uint128 amount, uint40 finalizeAfter)',
  'event WithdrawFinalized(bytes32 indexed channelId, address indexed sender, uint128 amount)',
  'error InvalidChannel()',
  'error ZeroDeposit()',
  'error DepositOverflow()',
  'error InvalidSignature()',
  'error NotReceiverAuthorizer()',
  'error NotAuthorizedToClaim()',
  'error NotAuthorizedToRefund()',
  'error ClaimExceedsCeiling()',
  'error ClaimExceedsBalance()',
  'error WithdrawalAlreadyPending()',
  'error WithdrawalNotPending()',
  'error NotAuthorizedToFinalizeWithdraw()',
  'error WithdrawDelayNotElapsed()',
  'error NothingToWithdraw()',
  'error WithdrawAmountExceedsAvailable()',
  'error WithdrawDelayOutOfRange()',
  'error EmptyBatch()',
  'error DepositCollectionFailed()',
  'error InvalidCollector()',
  'error InvalidRefundNonce()',
  'error ZeroRefund()',
  'error ReentrancyGuardReentrantCall()',
  'error ECDSAInvalidSignature()',
  'error ECDSAInvalidSignatureLength(uint256 length)',
  'error ECDSAInvalidSignatureS(bytes32 s)',
  // ERC3009DepositCollector
  'function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes collectorData)',
  'function x402BatchSettlement() view returns (address)',
  'error OnlyX402BatchSettlement()',
  'error NotImplemented(bytes4 selector)',
])

export interface BatchSettlementDeployment {
  settlement: Address
  erc3009DepositCollector: Address
}

export async function deployBatchSettlement(ctx: DeployContext): Promise<BatchSettlementDeployment> {
  const settlement = await ctx.etch('X402BatchSettlementStandIn', BATCH_SETTLEMENT_ADDRESSES.settlement)
  // The collector only accepts calls from the settlement address it was built with: the canonical one.
  const erc3009DepositCollector = await ctx.etch(
    'ERC3009DepositCollectorStandIn',
    BATCH_SETTLEMENT_ADDRESSES.erc3009DepositCollector,
    [settlement],
  )
  return { settlement, erc3009DepositCollector }
}

/** buildDevnetState plug-in: x402BatchSettlement and its EIP-3009 deposit collector. */
export const devnetModule: DevnetModule = {
  name: 'batchSettlement',
  async deploy(ctx) {
    const d = await deployBatchSettlement(ctx)
    return { settlement: d.settlement, erc3009DepositCollector: d.erc3009DepositCollector }
  },
}
