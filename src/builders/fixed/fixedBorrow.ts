import { isAddressEqual } from 'viem'
import { z } from 'zod'
import { address, atomicAmount, marketId, positiveAtomicAmount } from '../../chain/fields.js'
import { midnightAbi } from '../../chain/midnight.js'
import { MIDNIGHT_API, type MorphoMidnight } from '../../market/upstreams/morphoMidnight.js'
import { approveIfShort } from '../approveIfShort.js'
import type { MayApprove } from '../assertOutflows.js'
import { owner, slippageBpsBody } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { assertBalance, BuildRefusedError } from '../builderErrors.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, AllowanceIssue, BuilderEnvelope, TxStep } from '../txStep.js'
import {
  collateralIndex,
  type FixedMarket,
  findFixedMarket,
  MIDNIGHT,
  maxDebtOf,
  readFixedState,
} from './fixedMarket.js'
import { encodeFixedSupplyCollateral } from './fixedSupplyCollateral.js'
import {
  aprLabel,
  encodeFixedTakes,
  fetchFixedBookSide,
  fixedTakeProbes,
  planFixedTake,
  takeFields,
  verifyFixedTake,
} from './fixedTake.js'

export const fixedBorrowBody = z.strictObject({
  marketId,
  assets: positiveAtomicAmount.describe('Loan token received now, atomic (at least)'),
  owner,
  slippageBps: slippageBpsBody().describe('Max bps below the best bid price'),
  collateral: z
    .strictObject({
      token: address.describe('One of the market’s collateral tokens'),
      assets: positiveAtomicAmount.describe('Collateral to supply first (atomic)'),
    })
    .optional()
    .describe('Collateral to supply in the same bundle, before the takes'),
})

export type FixedBorrowBody = z.output<typeof fixedBorrowBody>

export const fixedBorrowAction = {
  type: z.literal('fixedBorrow'),
  ...takeFields,
  debtAfter: atomicAmount.describe('Debt in units after the bundle'),
  maxDebtAfter: atomicAmount
    .nullable()
    .describe('Σ collateral × price / 1e36 × LLTV after the bundle; null when an oracle does not answer'),
}

export type FixedBorrowAction = ActionOf<typeof fixedBorrowAction>

/**
 * Borrow `assets` of loan token now by selling units to the bid book (lender-makers): the units owed at
 * maturity are what the fills sell. With `collateral`, its approve (when short) and supplyCollateral come
 * first. Refused before simulating when the position would be unhealthy: 422 `unhealthy_after` naming
 * `collateral` (details debtAfter, maxDebtAfter); after simulating, 502 when the takes pay less than the
 * planned assets or move the position by other than the planned units (`verifyFixedTake`).
 */
export async function buildFixedBorrow(
  engine: BuilderEngine,
  midnight: MorphoMidnight,
  body: FixedBorrowBody,
): Promise<BuilderEnvelope<FixedBorrowAction>> {
  const { owner } = body
  const m = await findFixedMarket(engine, body.marketId)
  const index =
    body.collateral === undefined ? null : collateralIndex(m, body.collateral.token, 'collateral.token')
  const supplied = body.collateral === undefined ? 0n : body.collateral.assets
  const pulls = index === null ? null : (m.collaterals[index]?.address ?? null)
  const quotedAt = engine.nowSec()
  // The chain state and the API's book side, concurrently.
  const [state, bookSide] = await Promise.all([
    readFixedState(engine, m, owner, pulls),
    fetchFixedBookSide(midnight, m.id, true),
  ])
  if (state.chainTime >= m.maturity)
    throw new BuildRefusedError(
      'matured',
      `Market ${m.id} matured at ${m.maturity}: no debt can be added.`,
      'marketId',
      {
        maturity: m.maturity,
      },
    )
  const plan = planFixedTake(bookSide, m, {
    owner,
    assets: body.assets,
    slippageBps: body.slippageBps,
    takingBids: true,
    fee: state.fee,
    chainTime: state.chainTime,
    quotedAt,
  })
  const units = BigInt(plan.fields.units)
  // Selling units first cancels the owner's credit, then adds debt (Midnight's take).
  const debtAfter = state.debt + (units > state.credit ? units - state.credit : 0n)
  const collateralAfter = state.collateral.map((c, i) => (i === index ? c + supplied : c))
  const maxDebtAfter = maxDebtOf(m, collateralAfter, state.prices)
  if (debtAfter > state.debt && (maxDebtAfter === null || debtAfter > maxDebtAfter))
    throw new BuildRefusedError(
      'unhealthy_after',
      `Owing ${debtAfter} units against collateral worth at most ${maxDebtAfter ?? 'an unpriced amount'} of ` +
        `debt would leave the position unhealthy: supply more collateral (\`collateral\`) or borrow less.`,
      'collateral',
      { debtAfter: debtAfter.toString(), maxDebtAfter: maxDebtAfter?.toString() ?? null },
    )
  const steps: TxStep[] = []
  let allowance: AllowanceIssue | null = null
  const grants: MayApprove[] = []
  if (index !== null) {
    const token = m.collaterals[index] as FixedMarket['collaterals'][number]
    assertBalance('collateral.assets', token, state.balance, supplied)
    const approve = approveIfShort({
      token: token.address,
      spender: MIDNIGHT,
      needed: supplied,
      allowance: state.allowance,
      label: tokenLabel(supplied, token),
      spenderName: 'Morpho Midnight',
    })
    allowance = approve.issue
    grants.push(...approve.grants)
    steps.push(...approve.steps, encodeFixedSupplyCollateral(m, index, supplied, owner))
  }
  const f = plan.fields
  steps.push(
    encodeFixedTakes(
      plan.calls,
      `Borrow ${tokenLabel(BigInt(f.assets), m.loanToken)} until maturity (owe ` +
        `${tokenLabel(units, m.loanToken)}) at ${aprLabel(f.averageApr)} APR, worst ${aprLabel(f.worstApr)}, ` +
        `over ${plan.calls.length} offer(s)`,
    ),
  )
  return engine.finish({
    owner,
    steps,
    watch: [m.loanToken.address, ...(pulls === null ? [] : [pulls])],
    // The offers' calldata comes from the Midnight API: a borrow costs the owner nothing but the collateral
    // it supplies (the makers pay the loan token and the settlement fee).
    outflows: {
      mayLeave: pulls === null ? [] : [{ token: pulls, amount: supplied }],
      mayApprove: grants,
      source: MIDNIGHT_API,
    },
    issues: { balance: null, allowance },
    action: {
      type: 'fixedBorrow',
      ...f,
      debtAfter: debtAfter.toString(),
      maxDebtAfter: maxDebtAfter?.toString() ?? null,
    },
    revertAbi: midnightAbi,
    probes: fixedTakeProbes(m, owner),
    verify: (simulation, probes) =>
      verifyFixedTake(
        m,
        {
          takingBids: true,
          assets: BigInt(f.assets),
          units,
          loanSpentElsewhere: pulls !== null && isAddressEqual(pulls, m.loanToken.address) ? supplied : 0n,
        },
        simulation,
        probes,
      ),
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
