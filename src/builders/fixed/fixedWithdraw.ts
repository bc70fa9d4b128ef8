import { type Address, encodeFunctionData } from 'viem'
import { z } from 'zod'
import { atomicAmount, marketId } from '../../chain/fields.js'
import { midnightAbi } from '../../chain/midnight.js'
import { CHAIN_UPSTREAM } from '../../chain/multiRead.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { BuildRefusedError } from '../builderErrors.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { type FixedMarket, findFixedMarket, MIDNIGHT, readFixedState } from './fixedMarket.js'
import type { FixedUnitsBody } from './fixedRepay.js'

export const fixedWithdrawAction = {
  type: z.literal('fixedWithdraw'),
  marketId,
  units: atomicAmount,
  maturity: z.number().int(),
  creditAfter: atomicAmount.describe('Credit in units after the bundle'),
  withdrawableAfter: atomicAmount.describe('Repaid units left for lenders after this withdrawal'),
}

export type FixedWithdrawAction = ActionOf<typeof fixedWithdrawAction>

/** Pure: `withdraw(market, units, onBehalf = owner, receiver = owner)`: pays `units` of loan token. */
export function encodeFixedWithdraw(m: FixedMarket, units: bigint, owner: Address): TxStep {
  return {
    to: MIDNIGHT,
    data: encodeFunctionData({
      abi: midnightAbi,
      functionName: 'withdraw',
      args: [m.market, units, owner, owner],
    }),
    value: 0n,
    description: `Withdraw ${tokenLabel(units, m.loanToken)} of repaid fixed-rate credit`,
  }
}

/**
 * A lender withdraws `units` of credit, paid 1:1 in loan token out of what borrowers have repaid
 * (Midnight's market-wide `withdrawable`). Refused before simulating: more than the credit (422
 * `exceeds_credit`), or more than is repaid — `not_matured` before maturity (sell the units on the bid
 * book instead), `not_repaid` after it — all naming `units`, details credit/withdrawable/maturity/chainTime.
 */
export async function buildFixedWithdraw(
  engine: BuilderEngine,
  body: FixedUnitsBody,
): Promise<BuilderEnvelope<FixedWithdrawAction>> {
  const { owner, units } = body
  const m = await findFixedMarket(engine, body.marketId)
  const quotedAt = engine.nowSec()
  const state = await readFixedState(engine, m, owner, null)
  const details = {
    credit: state.credit.toString(),
    withdrawable: state.withdrawable.toString(),
    maturity: m.maturity,
    chainTime: state.chainTime,
  }
  if (units > state.credit)
    throw new BuildRefusedError(
      'exceeds_credit',
      `The owner is owed ${tokenLabel(state.credit, m.loanToken)} (units) in market ${m.id}.`,
      'units',
      details,
    )
  if (units > state.withdrawable) {
    const matured = state.chainTime >= m.maturity
    throw new BuildRefusedError(
      matured ? 'not_repaid' : 'not_matured',
      matured
        ? `Borrowers have repaid only ${tokenLabel(state.withdrawable, m.loanToken)} of market ${m.id} so far.`
        : `Market ${m.id} matures at ${m.maturity}; before then only units borrowers repaid early ` +
            `(${tokenLabel(state.withdrawable, m.loanToken)}) can be withdrawn — sell the credit on the bid ` +
            `book to exit now.`,
      'units',
      details,
    )
  }
  return engine.finish({
    owner,
    steps: [encodeFixedWithdraw(m, units, owner)],
    watch: [m.loanToken.address],
    // Nothing leaves the owner's wallet in this bundle: any token that would is refused (assertOutflows).
    outflows: { mayLeave: [], mayApprove: [], source: CHAIN_UPSTREAM },
    issues: { balance: null, allowance: null },
    action: {
      type: 'fixedWithdraw',
      marketId: m.id,
      units: units.toString(),
      maturity: m.maturity,
      creditAfter: (state.credit - units).toString(),
      withdrawableAfter: (state.withdrawable - units).toString(),
    },
    revertAbi: midnightAbi,
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
