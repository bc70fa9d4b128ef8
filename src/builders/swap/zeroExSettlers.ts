import { type Address, isAddressEqual, parseAbi, zeroAddress } from 'viem'
import { ZEROX_SETTLER_REGISTRY } from '../../chain/addresses.js'
import { viewCall } from '../../chain/multiRead.js'
import { UpstreamError } from '../../errors.js'

/** 0x-settler's Deployer/registry views (src/deployer/IDeployer.sol; a `Feature` is a uint128). */
export const settlerRegistryAbi = parseAbi([
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function prev(uint128 feature) view returns (address)',
])

/** The taker-submitted Settler's feature number: the Settler AllowanceHolder quotes execute through. */
export const TAKER_SUBMITTED_FEATURE = 2n

/**
 * The multicall group that names the Settlers a 0x quote may execute through, read in the swap plan's own
 * multicall (no extra round trip): the registry's current taker-submitted Settler (`ownerOf(2)`) and the
 * one before it (`prev(2)`).
 *
 * Why the registry and not a configured list: 0x redeploys the Settler often (every release, on every
 * chain) and documents one thing to rely on, its deployer/registry at the same address everywhere, telling
 * integrators to query it for the live Settler before building a transaction and never to hardcode a
 * Settler (0xProject/0x-settler README). A configured list would go stale at the next deployment and turn
 * every honest quote into a refusal, or tempt an operator to widen it. The registry is 0x's own onchain
 * record, written only by 0x's deployment multisig, which a compromised or spoofed 0x API cannot change.
 * The previous deployment is accepted as well: quotes priced just before a rollover still name it, and it
 * stays a genuine 0x Settler until 0x removes it (then `prev` no longer names it). On the devnet a stand-in
 * of the registry sits at the real address and names the devnet's Settler.
 */
export function settlerRegistryCalls() {
  return [
    viewCall(ZEROX_SETTLER_REGISTRY, settlerRegistryAbi, 'ownerOf', [TAKER_SUBMITTED_FEATURE]),
    viewCall(ZEROX_SETTLER_REGISTRY, settlerRegistryAbi, 'prev', [TAKER_SUBMITTED_FEATURE]),
  ]
}

/**
 * The Settlers out of the registry reads. A current Settler that cannot be read is refused: the registry
 * reverts `ownerOf` while 0x has the Settler paused ("you should not interact"), and without it no target
 * can be told genuine. A `prev` that reverts (none yet) is simply absent.
 */
export function knownSettlers(read: readonly (Address | undefined)[]): Address[] {
  const named = (a: Address | undefined): a is Address => a !== undefined && !isAddressEqual(a, zeroAddress)
  const [current, previous] = read
  if (!named(current))
    throw new UpstreamError(
      '0x Swap API',
      "0x's Settler registry names no live taker-submitted Settler (paused, or unreadable)",
    )
  return named(previous) ? [current, previous] : [current]
}
