import { type Address, encodeFunctionData } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { morphoAbi } from '../../chain/morpho.js'
import { CHAIN_UPSTREAM } from '../../chain/multiRead.js'
import { approveIfShort } from '../approveIfShort.js'
import { grantsOf } from '../assertOutflows.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { assertBalance } from '../builderErrors.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { findMorphoMarket, type LoanMarket } from './findMorphoMarket.js'
import { type LoanBody, loanActionFields, positionFields } from './loanPositionFields.js'
import { readLoanState } from './loanState.js'

export const loanSupplyCollateralAction = { type: z.literal('supplyCollateral'), ...loanActionFields }

export type LoanSupplyCollateralAction = ActionOf<typeof loanSupplyCollateralAction>

/**
 * Pure: approve the collateral to Morpho (only when the live allowance is short, exactly `assets`), then
 * `supplyCollateral(params, assets, owner, "")` (no callback).
 */
export function encodeLoanSupplyCollateral(p: {
  market: LoanMarket
  allowance: bigint
  assets: bigint
  owner: Address
}) {
  const { market } = p
  const approve = approveIfShort({
    token: market.collateralToken.address,
    spender: BASE_ADDRESSES.MorphoBlue,
    needed: p.assets,
    allowance: p.allowance,
    label: tokenLabel(p.assets, market.collateralToken),
    spenderName: 'Morpho Blue',
  })
  const supply: TxStep = {
    to: BASE_ADDRESSES.MorphoBlue,
    data: encodeFunctionData({
      abi: morphoAbi,
      functionName: 'supplyCollateral',
      args: [market.params, p.assets, p.owner, '0x'],
    }),
    value: 0n,
    description: `Supply ${tokenLabel(p.assets, market.collateralToken)} as collateral to the ${market.label} Morpho market`,
  }
  return { steps: [...approve.steps, supply], allowanceIssue: approve.issue }
}

export async function buildLoanSupplyCollateral(
  engine: BuilderEngine,
  body: LoanBody,
): Promise<BuilderEnvelope<LoanSupplyCollateralAction>> {
  const { owner, assets } = body
  const market = await findMorphoMarket(engine, body.marketId)
  const quotedAt = engine.nowSec()
  const state = await readLoanState(market, engine.chain, owner, market.collateralToken.address)
  assertBalance('assets', market.collateralToken, state.balance, assets)
  const { steps, allowanceIssue } = encodeLoanSupplyCollateral({
    market,
    allowance: state.allowance,
    assets,
    owner,
  })
  const position = { ...state.position, collateral: state.position.collateral + assets }
  const { fields } = positionFields(market, state, { position, totals: state.totals })
  return engine.finish({
    owner,
    atBlock: state.blockNumber,
    steps,
    watch: [market.collateralToken.address],
    // Only the collateral supplied leaves the owner's wallet, and only the exact approve is granted.
    outflows: {
      mayLeave: [{ token: market.collateralToken.address, amount: assets }],
      mayApprove: grantsOf(allowanceIssue),
      source: CHAIN_UPSTREAM,
    },
    issues: { balance: null, allowance: allowanceIssue },
    action: { type: 'supplyCollateral', marketId: market.id, assets: assets.toString(), ...fields },
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
