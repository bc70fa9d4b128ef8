import { type Address, encodeFunctionData } from 'viem'
import { z } from 'zod'
import { atomicAmount } from '../../chain/fields.js'
import { midnightAbi } from '../../chain/midnight.js'
import { CHAIN_UPSTREAM } from '../../chain/multiRead.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { BuildRefusedError } from '../builderErrors.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import {
  collateralIndex,
  type FixedMarket,
  findFixedMarket,
  MIDNIGHT,
  maxDebtOf,
  readFixedState,
} from './fixedMarket.js'
import { collateralAction, type FixedCollateralBody } from './fixedSupplyCollateral.js'

export const fixedWithdrawCollateralAction = {
  type: z.literal('fixedWithdrawCollateral'),
  ...collateralAction,
  debt: atomicAmount.describe('Debt in units'),
  maxDebtAfter: atomicAmount.nullable().describe('Σ collateral × price / 1e36 × LLTV after the bundle'),
}

export type FixedWithdrawCollateralAction = ActionOf<typeof fixedWithdrawCollateralAction>

/** Pure: `withdrawCollateral(market, index, assets, onBehalf = owner, receiver = owner)`. */
export function encodeFixedWithdrawCollateral(
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
      functionName: 'withdrawCollateral',
      args: [m.market, BigInt(index), assets, owner, owner],
    }),
    value: 0n,
    description: `Withdraw ${tokenLabel(assets, token)} of collateral`,
  }
}

/**
 * Withdraw `assets` of a collateral back to the owner. Refused before simulating: more than supplied
 * (422 `exceeds_collateral` naming `assets`, details collateral) or leaving the debt above Σ collateral ×
 * price × LLTV (422 `unhealthy_after` naming `assets`, details debt, maxDebtAfter).
 */
export async function buildFixedWithdrawCollateral(
  engine: BuilderEngine,
  body: FixedCollateralBody,
): Promise<BuilderEnvelope<FixedWithdrawCollateralAction>> {
  const { owner, assets } = body
  const m = await findFixedMarket(engine, body.marketId)
  const index = collateralIndex(m, body.collateralToken, 'collateralToken')
  const token = m.collaterals[index] as FixedMarket['collaterals'][number]
  const quotedAt = engine.nowSec()
  const state = await readFixedState(engine, m, owner, null)
  const held = state.collateral[index] ?? 0n
  if (assets > held)
    throw new BuildRefusedError(
      'exceeds_collateral',
      `The owner has ${tokenLabel(held, token)} of collateral in market ${m.id}.`,
      'assets',
      { collateral: held.toString() },
    )
  const after = state.collateral.map((c, i) => (i === index ? c - assets : c))
  const maxDebtAfter = maxDebtOf(m, after, state.prices)
  if (state.debt > 0n && (maxDebtAfter === null || state.debt > maxDebtAfter))
    throw new BuildRefusedError(
      'unhealthy_after',
      `Withdrawing ${tokenLabel(assets, token)} would leave ${state.debt} units of debt above what the rest of the collateral backs (${maxDebtAfter ?? 'unpriced'}).`,
      'assets',
      { debt: state.debt.toString(), maxDebtAfter: maxDebtAfter?.toString() ?? null },
    )
  return engine.finish({
    owner,
    steps: [encodeFixedWithdrawCollateral(m, index, assets, owner)],
    watch: [token.address],
    // Nothing leaves the owner's wallet in this bundle: any token that would is refused (assertOutflows).
    outflows: { mayLeave: [], mayApprove: [], source: CHAIN_UPSTREAM },
    issues: { balance: null, allowance: null },
    action: {
      type: 'fixedWithdrawCollateral',
      marketId: m.id,
      collateralToken: token.address,
      assets: assets.toString(),
      collateralAfter: (held - assets).toString(),
      debt: state.debt.toString(),
      maxDebtAfter: maxDebtAfter?.toString() ?? null,
    },
    revertAbi: midnightAbi,
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
