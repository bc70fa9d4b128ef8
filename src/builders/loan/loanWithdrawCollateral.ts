import { type Address, encodeFunctionData } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { morphoAbi } from '../../chain/morpho.js'
import { CHAIN_UPSTREAM } from '../../chain/multiRead.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { BuildRefusedError } from '../builderErrors.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { findMorphoMarket, type LoanMarket } from './findMorphoMarket.js'
import { assertHealthyAfter, type LoanBody, loanActionFields, positionFields } from './loanPositionFields.js'
import { readLoanState } from './loanState.js'

export const loanWithdrawCollateralAction = { type: z.literal('withdrawCollateral'), ...loanActionFields }

export type LoanWithdrawCollateralAction = ActionOf<typeof loanWithdrawCollateralAction>

/** Pure: `withdrawCollateral(params, assets, owner, owner)`: the owner takes its collateral back. */
export function encodeLoanWithdrawCollateral(p: {
  market: LoanMarket
  assets: bigint
  owner: Address
}): TxStep {
  return {
    to: BASE_ADDRESSES.MorphoBlue,
    data: encodeFunctionData({
      abi: morphoAbi,
      functionName: 'withdrawCollateral',
      args: [p.market.params, p.assets, p.owner, p.owner],
    }),
    value: 0n,
    description: `Withdraw ${tokenLabel(p.assets, p.market.collateralToken)} of collateral from the ${p.market.label} Morpho market`,
  }
}

export async function buildLoanWithdrawCollateral(
  engine: BuilderEngine,
  body: LoanBody,
): Promise<BuilderEnvelope<LoanWithdrawCollateralAction>> {
  const { owner, assets } = body
  const market = await findMorphoMarket(engine, body.marketId)
  const quotedAt = engine.nowSec()
  const state = await readLoanState(market, engine.chain, owner, null)
  const { collateral } = state.position
  if (assets > collateral)
    throw new BuildRefusedError(
      'exceeds_collateral',
      `The owner has ${tokenLabel(collateral, market.collateralToken)} of collateral in the ${market.label} market.`,
      'assets',
      { collateral: collateral.toString() },
    )
  const position = { ...state.position, collateral: collateral - assets }
  const { fields, health } = positionFields(market, state, { position, totals: state.totals })
  assertHealthyAfter(
    market,
    state,
    health,
    `withdrawing ${tokenLabel(assets, market.collateralToken)} of collateral`,
  )
  return engine.finish({
    owner,
    atBlock: state.blockNumber,
    steps: [encodeLoanWithdrawCollateral({ market, assets, owner })],
    watch: [market.collateralToken.address],
    // Nothing leaves the owner's wallet in this bundle: any token that would is refused (assertOutflows).
    outflows: { mayLeave: [], mayApprove: [], source: CHAIN_UPSTREAM },
    issues: { balance: null, allowance: null },
    action: { type: 'withdrawCollateral', marketId: market.id, assets: assets.toString(), ...fields },
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
