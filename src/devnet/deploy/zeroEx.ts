import { type Address, parseAbi } from 'viem'
import { BASE_ADDRESSES, ZEROX_SETTLER_REGISTRY } from '../../chain/addresses.js'
import { DEVNET_ADDRESSES } from '../addresses.js'
import type { DeployContext } from '../deployContext.js'
import type { DevnetModule } from './registry.js'

/**
 * 0x Swap API v2's onchain side (protocols.md §4): AllowanceHolder at its Base address (real ABI and
 * semantics: transient allowance, ERC-2771-style taker forwarding) and a Settler stand-in at a devnet
 * address that runs TRANSFER_FROM and BASIC actions through the devnet's pools, and 0x's Settler registry at
 * its real address naming that Settler as the live taker-submitted one (`ownerOf(2)`), which is how the swap
 * builder tells a genuine Settler from any other `exec` target. The devnet's 0x simulator
 * (upstreams/zeroExApp.ts) encodes its `quote` transactions against these.
 */
export const ZEROX_ADDRESSES = {
  allowanceHolder: BASE_ADDRESSES.ZeroExAllowanceHolder,
  settler: DEVNET_ADDRESSES.ZEROX_SETTLER,
  settlerRegistry: ZEROX_SETTLER_REGISTRY,
} as const satisfies Record<string, Address>

export const zeroExStandInAbi = parseAbi([
  // AllowanceHolder (0xProject/0x-settler src/allowanceholder/IAllowanceHolder.sol)
  'function exec(address operator, address token, uint256 amount, address target, bytes data) payable returns (bytes result)',
  'function transferFrom(address token, address owner, address recipient, uint256 amount) returns (bool)',
  // Settler (taker-submitted entry point and ISettlerBase.AllowedSlippage)
  'struct AllowedSlippage { address recipient; address buyToken; uint256 minAmountOut; }',
  'function execute(AllowedSlippage slippage, bytes[] actions, bytes32 zid) payable returns (bool)',
  'function allowanceHolder() view returns (address)',
  // Settler deployer/registry (0xProject/0x-settler src/deployer/IDeployer.sol; Feature is a uint128)
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function prev(uint128 feature) view returns (address)',
  'error ERC721NonexistentToken(uint256 tokenId)',
  'error NoInstance()',
  // ISettlerActions (bps-era signatures)
  'struct TokenPermissions { address token; uint256 amount; }',
  'struct PermitTransferFrom { TokenPermissions permitted; uint256 nonce; uint256 deadline; }',
  'function TRANSFER_FROM(address recipient, PermitTransferFrom permit, bytes sig)',
  'function BASIC(address sellToken, uint256 bps, address pool, uint256 offset, bytes data)',
  'error ConfusedDeputy()',
  'error ActionInvalid(uint256 i, bytes4 action, bytes data)',
  'error TooMuchSlippage(address token, uint256 expected, uint256 actual)',
  'error InvalidOffset()',
  'error InvalidTarget()',
  'error InvalidSignatureLen()',
  'error SignatureExpired(uint256 deadline)',
  'error NotImplemented(bytes4 selector)',
])

export interface ZeroExDeployment {
  allowanceHolder: Address
  settler: Address
  settlerRegistry: Address
}

export async function deployZeroEx(ctx: DeployContext): Promise<ZeroExDeployment> {
  const allowanceHolder = await ctx.etch('AllowanceHolderStandIn', ZEROX_ADDRESSES.allowanceHolder)
  const settler = await ctx.etch('ZeroExSettlerStandIn', ZEROX_ADDRESSES.settler, [allowanceHolder])
  const settlerRegistry = await ctx.etch('ZeroExSettlerRegistryStandIn', ZEROX_ADDRESSES.settlerRegistry, [
    settler,
  ])
  return { allowanceHolder, settler, settlerRegistry }
}

/** buildDevnetState plug-in: AllowanceHolder, the Settler stand-in and the Settler registry. */
export const devnetModule: DevnetModule = {
  name: 'zeroEx',
  async deploy(ctx) {
    const d = await deployZeroEx(ctx)
    return { allowanceHolder: d.allowanceHolder, settler: d.settler, settlerRegistry: d.settlerRegistry }
  },
}
