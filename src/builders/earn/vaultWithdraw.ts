import { type Address, encodeFunctionData, isAddressEqual } from 'viem'
import { z } from 'zod'
import { address, atomicAmount } from '../../chain/fields.js'
import { REQUEST_WITHDRAWAL_VAULTS } from '../../chain/lendingCatalog.js'
import { multiRead, viewCall } from '../../chain/multiRead.js'
import type { LendingChain, VaultInfo } from '../../market/lendingChain.js'
import { erc4626Abi } from '../builderAbis.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { BuildRefusedError } from '../builderErrors.js'
import { required } from '../required.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { findCatalogVault } from './findCatalogVault.js'
import type { VaultBody } from './vaultDeposit.js'

export const vaultWithdrawAction = { type: z.literal('vaultWithdraw'), vault: address, assets: atomicAmount }

export type VaultWithdrawAction = ActionOf<typeof vaultWithdrawAction>

/** Pure: `withdraw(assets, owner, owner)`: the owner burns its shares and receives the assets. */
export function encodeVaultWithdraw(p: { vault: VaultInfo; assets: bigint; owner: Address }): TxStep {
  return {
    to: p.vault.address,
    data: encodeFunctionData({
      abi: erc4626Abi,
      functionName: 'withdraw',
      args: [p.assets, p.owner, p.owner],
    }),
    value: 0n,
    description: `Withdraw ${tokenLabel(p.assets, p.vault.asset)} from ${p.vault.name}`,
  }
}

export async function buildVaultWithdraw(
  engine: BuilderEngine,
  lending: LendingChain,
  body: VaultBody,
): Promise<BuilderEnvelope<VaultWithdrawAction>> {
  const { owner, assets } = body
  // Before the catalog lookup, so the answer is the same on every profile (the devnet has no gUSDC).
  if (REQUEST_WITHDRAWAL_VAULTS.some((v) => isAddressEqual(v, body.vault)))
    throw new BuildRefusedError(
      'withdraw_needs_request',
      'gTrade’s gUSDC pays out only shares requested with makeWithdrawRequest and unlocked ' +
        'withdrawEpochsTimelock() epochs later; a plain ERC-4626 withdraw would be refused on Base, and this ' +
        'service does not build the request flow.',
      'vault',
      { vault: body.vault },
    )
  const vault = await findCatalogVault(lending, body.vault)
  const quotedAt = engine.nowSec()
  const r = await multiRead(engine.chain, {
    max: [viewCall(vault.address, erc4626Abi, 'maxWithdraw', [owner])],
  })
  const maxWithdraw = required(r.max[0], `${vault.name} maxWithdraw`)
  if (assets > maxWithdraw)
    throw new BuildRefusedError(
      'exceeds_max_withdraw',
      `The owner can withdraw at most ${tokenLabel(maxWithdraw, vault.asset)} from ${vault.name} now (maxWithdraw).`,
      'assets',
      { maxWithdraw: maxWithdraw.toString() },
    )
  return engine.finish({
    owner,
    steps: [encodeVaultWithdraw({ vault, assets, owner })],
    watch: [vault.asset.address, vault.address],
    issues: { balance: null, allowance: null },
    action: { type: 'vaultWithdraw', vault: vault.address, assets: assets.toString() },
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
