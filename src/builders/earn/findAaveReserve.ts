import { type Address, isAddressEqual } from 'viem'
import type { AaveReserveInfo, LendingChain } from '../../market/lendingChain.js'
import { UnlistedTargetError } from '../builderErrors.js'

/**
 * The catalog's Aave reserve for `asset` (its token metadata and aToken), or 422 unlisted_target naming
 * `asset`: builders only supply to and withdraw from the reserves GET /v1/earn/vaults lists.
 */
export async function findAaveReserve(lending: LendingChain, asset: Address): Promise<AaveReserveInfo> {
  const found = (await lending.structure()).aaveReserves.find((r) => isAddressEqual(r.asset.address, asset))
  if (found === undefined) throw new UnlistedTargetError(asset, 'asset')
  return found
}
