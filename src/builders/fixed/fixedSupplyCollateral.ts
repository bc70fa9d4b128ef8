import { type Address, encodeFunctionData } from 'viem'
import { z } from 'zod'
import { address, atomicAmount, marketId, positiveAtomicAmount } from '../../chain/fields.js'
import { midnightAbi } from '../../chain/midnight.js'
import { CHAIN_UPSTREAM } from '../../chain/multiRead.js'
import { approveIfShort } from '../approveIfShort.js'
import { owner } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { assertBalance } from '../builderErrors.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import {
  collateralIndex,
  type FixedMarket,
  findFixedMarket,
  MIDNIGHT,
  readFixedState,
} from './fixedMarket.js'

/** The body of a collateral supply or withdrawal. */
export const fixedCollateralBody = z.strictObject({
  marketId,
  collateralToken: address.describe(
    'One of the market’s collateral tokens (422 `unknown_collateral` otherwise)',
  ),
  assets: positiveAtomicAmount.describe('Collateral, atomic'),
  owner,
})

export type FixedCollateralBody = z.output<typeof fixedCollateralBody>

/** What a collateral supply or withdrawal reports. */
export const collateralAction = {
  marketId,
  collateralToken: address,
  assets: atomicAmount,
  collateralAfter: atomicAmount.describe(
    'The owner’s amount of this collateral in the market after the bundle',
  ),
}

export const fixedSupplyCollateralAction = { type: z.literal('fixedSupplyCollateral'), ...collateralAction }

export type FixedSupplyCollateralAction = ActionOf<typeof fixedSupplyCollateralAction>

/** Pure: `supplyCollateral(market, index, assets, onBehalf = owner)`. */
export function encodeFixedSupplyCollateral(
  m: FixedMarket,
  index: number,
  assets: bigint,
  owner: Address,
): TxStep {
  const token = m.collaterals[index] as FixedMarket['collaterals'][number]
  return {
    to: MIDNIGHT,
    data: encodeFunctionData({
      abi: midnightAbi,
      functionName: 'supplyCollateral',
      args: [m.market, BigInt(index), assets, owner],
    }),
    value: 0n,
    description: `Supply ${tokenLabel(assets, token)} as collateral`,
  }
}

/** Supply `assets` of one of the market's collaterals for the owner; the exact approve when short. */
export async function buildFixedSupplyCollateral(
  engine: BuilderEngine,
  body: FixedCollateralBody,
): Promise<BuilderEnvelope<FixedSupplyCollateralAction>> {
  const { owner, assets } = body
  const m = await findFixedMarket(engine, body.marketId)
  const index = collateralIndex(m, body.collateralToken, 'collateralToken')
  const token = m.collaterals[index] as FixedMarket['collaterals'][number]
  const quotedAt = engine.nowSec()
  const state = await readFixedState(engine, m, owner, token.address)
  assertBalance('assets', token, state.balance, assets)
  const approve = approveIfShort({
    token: token.address,
    spender: MIDNIGHT,
    needed: assets,
    allowance: state.allowance,
    label: tokenLabel(assets, token),
    spenderName: 'Morpho Midnight',
  })
  return engine.finish({
    owner,
    steps: [...approve.steps, encodeFixedSupplyCollateral(m, index, assets, owner)],
    watch: [token.address],
    // Only the collateral supplied leaves the owner's wallet, and only the exact approve is granted.
    outflows: {
      mayLeave: [{ token: token.address, amount: assets }],
      mayApprove: approve.grants,
      source: CHAIN_UPSTREAM,
    },
    issues: { balance: null, allowance: approve.issue },
    action: {
      type: 'fixedSupplyCollateral',
      marketId: m.id,
      collateralToken: token.address,
      assets: assets.toString(),
      collateralAfter: ((state.collateral[index] ?? 0n) + assets).toString(),
    },
    revertAbi: midnightAbi,
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
