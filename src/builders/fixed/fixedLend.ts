import { z } from 'zod'
import { atomicAmount, marketId, positiveAtomicAmount } from '../../chain/fields.js'
import { midnightAbi } from '../../chain/midnight.js'
import { MIDNIGHT_API, type MorphoMidnight } from '../../market/upstreams/morphoMidnight.js'
import { approveIfShort } from '../approveIfShort.js'
import { owner, slippageBpsBody } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { assertBalance, BuildRefusedError } from '../builderErrors.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope } from '../txStep.js'
import { findFixedMarket, MIDNIGHT, readFixedState } from './fixedMarket.js'
import {
  aprLabel,
  encodeFixedTakes,
  fetchFixedBookSide,
  fixedTakeProbes,
  planFixedTake,
  takeFields,
  verifyFixedTake,
} from './fixedTake.js'

export const fixedLendBody = z.strictObject({
  marketId,
  assets: positiveAtomicAmount.describe('Loan token paid now, atomic (at most)'),
  owner,
  slippageBps: slippageBpsBody().describe('Max bps above the best ask price'),
})

export type FixedLendBody = z.output<typeof fixedLendBody>

export const fixedLendAction = {
  type: z.literal('fixedLend'),
  ...takeFields,
  creditAfter: atomicAmount.describe('Credit in units after the bundle'),
}

export type FixedLendAction = ActionOf<typeof fixedLendAction>

/**
 * Lend `assets` of loan token now by buying units from the ask book (borrower-makers); the units bought
 * pay one loan token each at maturity. The loan-token approve of exactly what the fills pay is prepended
 * when short. After simulating, 502 when the takes cost more than the planned assets or move the position
 * by other than the planned units (`verifyFixedTake`).
 */
export async function buildFixedLend(
  engine: BuilderEngine,
  midnight: MorphoMidnight,
  body: FixedLendBody,
): Promise<BuilderEnvelope<FixedLendAction>> {
  const { owner } = body
  const m = await findFixedMarket(engine, body.marketId)
  const quotedAt = engine.nowSec()
  // The chain state and the API's book side, concurrently.
  const [state, bookSide] = await Promise.all([
    readFixedState(engine, m, owner, m.loanToken.address),
    fetchFixedBookSide(midnight, m.id, false),
  ])
  if (state.chainTime >= m.maturity)
    throw new BuildRefusedError(
      'matured',
      `Market ${m.id} matured at ${m.maturity}: nothing can be lent.`,
      'marketId',
      {
        maturity: m.maturity,
      },
    )
  const plan = planFixedTake(bookSide, m, {
    owner,
    assets: body.assets,
    slippageBps: body.slippageBps,
    takingBids: false,
    fee: state.fee,
    chainTime: state.chainTime,
    quotedAt,
  })
  const f = plan.fields
  const paid = BigInt(f.assets)
  const units = BigInt(f.units)
  assertBalance('assets', m.loanToken, state.balance, paid)
  const approve = approveIfShort({
    token: m.loanToken.address,
    spender: MIDNIGHT,
    needed: paid,
    allowance: state.allowance,
    label: tokenLabel(paid, m.loanToken),
    spenderName: 'Morpho Midnight',
  })
  // Buying units first cancels the owner's debt, then adds credit (Midnight's take).
  const creditAfter = state.credit + (units > state.debt ? units - state.debt : 0n)
  return engine.finish({
    owner,
    steps: [
      ...approve.steps,
      encodeFixedTakes(
        plan.calls,
        `Lend ${tokenLabel(paid, m.loanToken)} until maturity (receive ${tokenLabel(units, m.loanToken)}) at ` +
          `${aprLabel(f.averageApr)} APR, worst ${aprLabel(f.worstApr)}, over ${plan.calls.length} offer(s)`,
      ),
    ],
    watch: [m.loanToken.address],
    // The offers' calldata comes from the Midnight API: only the loan token paid may leave the owner.
    outflows: {
      mayLeave: [{ token: m.loanToken.address, amount: paid }],
      mayApprove: approve.grants,
      source: MIDNIGHT_API,
    },
    issues: { balance: null, allowance: approve.issue },
    action: { type: 'fixedLend', ...f, creditAfter: creditAfter.toString() },
    revertAbi: midnightAbi,
    probes: fixedTakeProbes(m, owner),
    verify: (simulation, probes) =>
      verifyFixedTake(
        m,
        { takingBids: false, assets: paid, units, loanSpentElsewhere: 0n },
        simulation,
        probes,
      ),
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
