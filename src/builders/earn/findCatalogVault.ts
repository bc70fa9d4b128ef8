import { type Address, isAddressEqual } from 'viem'
import type { LendingChain, VaultInfo } from '../../market/lendingChain.js'
import { UnlistedTargetError } from '../builderErrors.js'

/** The catalog vault at `vault` with its asset, or 422 naming the field: builders only target listed vaults. */
export async function findCatalogVault(lending: LendingChain, vault: Address): Promise<VaultInfo> {
  const found = (await lending.structure()).vaults.find((v) => isAddressEqual(v.address, vault))
  if (found === undefined) throw new UnlistedTargetError(vault, 'vault')
  return found
}
