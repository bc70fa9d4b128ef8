import { type Address, encodeFunctionData, zeroAddress } from 'viem'
import { z } from 'zod'
import { atomicAmount, marketId, positiveAtomicAmount } from '../../chain/fields.js'
import { midnightAbi } from '../../chain/midnight.js'
import { CHAIN_UPSTREAM } from '../../chain/multiRead.js'
import { approveIfShort } from '../approveIfShort.js'
import { owner } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { assertBalance, BuildRefusedError } from '../builderErrors.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { type FixedMarket, findFixedMarket, MIDNIGHT, readFixedState } from './fixedMarket.js'

/** The body of a repay or a withdraw: units of one market. */
export const unitsBody = z.strictObject({
  marketId,
  units: positiveAtomicAmount.describe('Units (1 unit = 1 atomic loan token, paid 1:1)'),
  owner,
})

export type FixedUnitsBody = z.output<typeof unitsBody>

export const fixedRepayAction = {
  type: z.literal('fixedRepay'),
  marketId,
  units: atomicAmount,
  maturity: z.number().int(),
  debtAfter: atomicAmount.describe('Debt in units after the bundle'),
}

export type FixedRepayAction = ActionOf<typeof fixedRepayAction>

/** Pure: `repay(market, units, onBehalf = owner, callback = 0, data = "")`: pulls `units` of loan token. */
export function encodeFixedRepay(m: FixedMarket, units: bigint, owner: Address): TxStep {
  return {
    to: MIDNIGHT,
    data: encodeFunctionData({
      abi: midnightAbi,
      functionName: 'repay',
      args: [m.market, units, owner, zeroAddress, '0x'],
    }),
    value: 0n,
    description: `Repay ${tokenLabel(units, m.loanToken)} of fixed-rate debt`,
  }
}

/**
 * Repay `units` of the owner's debt (one unit = one atomic loan token, before or after maturity); the
 * exact loan-token approve when short. More than the debt is 422 `exceeds_debt` naming `units`.
 */
export async function buildFixedRepay(
  engine: BuilderEngine,
  body: FixedUnitsBody,
): Promise<BuilderEnvelope<FixedRepayAction>> {
  const { owner, units } = body
  const m = await findFixedMarket(engine, body.marketId)
  const quotedAt = engine.nowSec()
  const state = await readFixedState(engine, m, owner, m.loanToken.address)
  if (units > state.debt)
    throw new BuildRefusedError(
      'exceeds_debt',
      `The owner owes ${tokenLabel(state.debt, m.loanToken)} (units) in market ${m.id}.`,
      'units',
      { debt: state.debt.toString() },
    )
  assertBalance('units', m.loanToken, state.balance, units)
  const approve = approveIfShort({
    token: m.loanToken.address,
    spender: MIDNIGHT,
    needed: units,
    allowance: state.allowance,
    label: tokenLabel(units, m.loanToken),
    spenderName: 'Morpho Midnight',
  })
  return engine.finish({
    owner,
    steps: [...approve.steps, encodeFixedRepay(m, units, owner)],
    watch: [m.loanToken.address],
    // Only the loan token repaid leaves the owner's wallet, and only the exact approve is granted.
    outflows: {
      mayLeave: [{ token: m.loanToken.address, amount: units }],
      mayApprove: approve.grants,
      source: CHAIN_UPSTREAM,
    },
    issues: { balance: null, allowance: approve.issue },
    action: {
      type: 'fixedRepay',
      marketId: m.id,
      units: units.toString(),
      maturity: m.maturity,
      debtAfter: (state.debt - units).toString(),
    },
    revertAbi: midnightAbi,
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
