import { type Address, encodeFunctionData, zeroAddress } from 'viem'
import { midnightAbi } from '../chain/midnight.js'
import { CHAIN_UPSTREAM } from '../chain/multiRead.js'
import { approveIfShort } from './approveIfShort.js'
import { BUILD_TTL_SEC, type BuilderEngine } from './builderEngine.js'
import { assertBalance, BuildRefusedError } from './builderErrors.js'
import { type FixedMarket, findFixedMarket, MIDNIGHT, readFixedState } from './fixedMarket.js'
import { tokenLabel } from './tokenLabel.js'
import type { BuilderEnvelope, TxStep } from './txStep.js'

export interface FixedUnitsBody {
  marketId: string
  units: string
  owner: string
}

export interface FixedRepayAction {
  type: 'fixedRepay'
  marketId: string
  units: string
  maturity: number
  debtAfter: string
}

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
  const owner = body.owner as Address
  const m = await findFixedMarket(engine, body.marketId)
  const units = BigInt(body.units)
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
      units: body.units,
      maturity: m.maturity,
      debtAfter: (state.debt - units).toString(),
    },
    revertAbi: midnightAbi,
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
