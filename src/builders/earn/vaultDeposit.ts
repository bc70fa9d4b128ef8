import { type Address, encodeFunctionData, erc20Abi } from 'viem'
import { z } from 'zod'
import { address, atomicAmount, positiveAtomicAmount } from '../../chain/fields.js'
import { CHAIN_UPSTREAM, multiRead, viewCall } from '../../chain/multiRead.js'
import type { LendingChain, VaultInfo } from '../../market/lendingChain.js'
import { approveIfShort } from '../approveIfShort.js'
import { grantsOf } from '../assertOutflows.js'
import { owner } from '../bodyFields.js'
import { erc4626Abi } from '../builderAbis.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { assertBalance, BuildRefusedError } from '../builderErrors.js'
import { required } from '../required.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { findCatalogVault } from './findCatalogVault.js'

/** The body of a vault deposit or withdrawal. */
export const vaultBody = z.strictObject({ vault: address, assets: positiveAtomicAmount, owner })

export type VaultBody = z.output<typeof vaultBody>

export const vaultDepositAction = {
  type: z.literal('vaultDeposit'),
  vault: address,
  assets: atomicAmount,
  expectedShares: atomicAmount,
}

export type VaultDepositAction = ActionOf<typeof vaultDepositAction>

/** The live state a deposit needs, read in one multicall. */
export interface VaultDepositState {
  vault: VaultInfo
  allowance: bigint
  balance: bigint
  expectedShares: bigint
  maxDeposit: bigint
}

/** Pure: approve (only when short, exactly `assets`, to the vault that pulls) then `deposit(assets, owner)`. */
export function encodeVaultDeposit(p: { state: VaultDepositState; assets: bigint; owner: Address }) {
  const { vault } = p.state
  const approve = approveIfShort({
    token: vault.asset.address,
    spender: vault.address,
    needed: p.assets,
    allowance: p.state.allowance,
    label: tokenLabel(p.assets, vault.asset),
    spenderName: vault.name,
  })
  const deposit: TxStep = {
    to: vault.address,
    data: encodeFunctionData({ abi: erc4626Abi, functionName: 'deposit', args: [p.assets, p.owner] }),
    value: 0n,
    description: `Deposit ${tokenLabel(p.assets, vault.asset)} into ${vault.name}`,
  }
  return { steps: [...approve.steps, deposit], allowanceIssue: approve.issue }
}

export async function buildVaultDeposit(
  engine: BuilderEngine,
  lending: LendingChain,
  body: VaultBody,
): Promise<BuilderEnvelope<VaultDepositAction>> {
  const { owner, assets } = body
  const vault = await findCatalogVault(lending, body.vault)
  const quotedAt = engine.nowSec()
  const r = await multiRead(engine.chain, {
    allowance: [viewCall(vault.asset.address, erc20Abi, 'allowance', [owner, vault.address])],
    balance: [viewCall(vault.asset.address, erc20Abi, 'balanceOf', [owner])],
    shares: [viewCall(vault.address, erc4626Abi, 'previewDeposit', [assets])],
    max: [viewCall(vault.address, erc4626Abi, 'maxDeposit', [owner])],
  })
  const state: VaultDepositState = {
    vault,
    allowance: required(r.allowance[0], `the ${vault.asset.symbol} allowance`),
    balance: required(r.balance[0], `the ${vault.asset.symbol} balance`),
    expectedShares: required(r.shares[0], `${vault.name} previewDeposit`),
    maxDeposit: required(r.max[0], `${vault.name} maxDeposit`),
  }
  assertBalance('assets', vault.asset, state.balance, assets)
  if (assets > state.maxDeposit)
    throw new BuildRefusedError(
      'exceeds_max_deposit',
      `${vault.name} accepts at most ${tokenLabel(state.maxDeposit, vault.asset)} from this owner now.`,
      'assets',
      { maxDeposit: state.maxDeposit.toString() },
    )
  const { steps, allowanceIssue } = encodeVaultDeposit({ state, assets, owner })
  return engine.finish({
    owner,
    steps,
    watch: [vault.asset.address, vault.address],
    // Only the assets deposited leave the owner's wallet, and only the exact approve is granted.
    outflows: {
      mayLeave: [{ token: vault.asset.address, amount: assets }],
      mayApprove: grantsOf(allowanceIssue),
      source: CHAIN_UPSTREAM,
    },
    issues: { balance: null, allowance: allowanceIssue },
    action: {
      type: 'vaultDeposit',
      vault: vault.address,
      assets: assets.toString(),
      expectedShares: state.expectedShares.toString(),
    },
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
