import { type Address, encodeFunctionData } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { atomicAmount } from '../../chain/fields.js'
import { morphoAbi } from '../../chain/morpho.js'
import { approveIfShort } from '../approveIfShort.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { assertBalance, BuildRefusedError } from '../builderErrors.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { findMorphoMarket, type LoanMarket } from './findMorphoMarket.js'
import { afterRepayAssets, afterRepayShares, toAssetsUp } from './loanMath.js'
import { type LoanBody, loanActionFields, positionFields } from './loanPositionFields.js'
import { readLoanState, readTotalsAt } from './loanState.js'

export type RepayMode = 'assets' | 'shares'

export const loanRepayAction = {
  type: z.literal('repay'),
  ...loanActionFields,
  mode: z
    .enum(['assets', 'shares'])
    .describe('"shares": the whole debt repaid by shares; "assets": exactly `assets` repaid'),
  shares: atomicAmount.describe('Borrow shares burned'),
  debtBefore: atomicAmount.describe('The debt before, with interest accrued to `accruedTo`'),
  maxRepaid: atomicAmount.describe(
    'The most the repay pulls and what the approve covers: `assets`, or by shares the debt accrued to `expiresAt`',
  ),
}

export type LoanRepayAction = ActionOf<typeof loanRepayAction>

/**
 * Pure: approve the loan token to Morpho (only when the live allowance is short, exactly `maxRepaid`),
 * then `repay(params, assets, 0, owner, "")`, or `repay(params, 0, shares, owner, "")` for the whole debt.
 */
export function encodeLoanRepay(p: {
  market: LoanMarket
  mode: RepayMode
  /** `assets` repaid, or the borrow shares burned by shares. */
  amount: bigint
  maxRepaid: bigint
  allowance: bigint
  owner: Address
}) {
  const { market } = p
  const approve = approveIfShort({
    token: market.loanToken.address,
    spender: BASE_ADDRESSES.MorphoBlue,
    needed: p.maxRepaid,
    allowance: p.allowance,
    label: tokenLabel(p.maxRepaid, market.loanToken),
    spenderName: 'Morpho Blue',
  })
  const [assets, shares] = p.mode === 'shares' ? [0n, p.amount] : [p.amount, 0n]
  const repay: TxStep = {
    to: BASE_ADDRESSES.MorphoBlue,
    data: encodeFunctionData({
      abi: morphoAbi,
      functionName: 'repay',
      args: [market.params, assets, shares, p.owner, '0x'],
    }),
    value: 0n,
    description:
      p.mode === 'shares'
        ? `Repay the whole ${market.loanToken.symbol} debt (at most ${tokenLabel(p.maxRepaid, market.loanToken)}) in the ${market.label} Morpho market`
        : `Repay ${tokenLabel(assets, market.loanToken)} in the ${market.label} Morpho market`,
  }
  return { steps: [...approve.steps, repay], allowanceIssue: approve.issue }
}

/**
 * A repay of at least the debt (interest accrued to the latest block) repays by shares, so no dust of
 * interest accrued before inclusion is left; its approve covers the debt accrued to `expiresAt` (read
 * with Morpho's own accrual at that timestamp), the most the repay can pull while the quote is valid and
 * nobody else moves the market's rate. Below the debt, exactly `assets` is repaid.
 */
export async function buildLoanRepay(
  engine: BuilderEngine,
  body: LoanBody,
): Promise<BuilderEnvelope<LoanRepayAction>> {
  const { owner, assets } = body
  const market = await findMorphoMarket(engine, body.marketId)
  const quotedAt = engine.nowSec()
  const expiresAt = quotedAt + BUILD_TTL_SEC
  // Two eth_calls in parallel (one round trip of latency): now, and the accrual projected to expiresAt.
  const [state, atExpiry] = await Promise.all([
    readLoanState(market, engine.chain, owner, market.loanToken.address),
    readTotalsAt(market, engine.chain, BigInt(expiresAt)),
  ])
  const { borrowShares } = state.position
  if (borrowShares === 0n)
    throw new BuildRefusedError(
      'nothing_to_repay',
      `The owner has no ${market.loanToken.symbol} debt in the ${market.label} market.`,
      'assets',
      { borrowShares: '0' },
    )
  const { totals } = state
  const debtBefore = toAssetsUp(borrowShares, totals.totalBorrowAssets, totals.totalBorrowShares)
  const byShares = assets >= debtBefore
  const maxRepaid = byShares
    ? toAssetsUp(borrowShares, atExpiry.totalBorrowAssets, atExpiry.totalBorrowShares)
    : assets
  assertBalance('assets', market.loanToken, state.balance, maxRepaid)
  const after = byShares
    ? afterRepayShares(state.position, totals)
    : afterRepayAssets(state.position, totals, assets)
  const mode: RepayMode = byShares ? 'shares' : 'assets'
  const { steps, allowanceIssue } = encodeLoanRepay({
    market,
    mode,
    amount: byShares ? borrowShares : assets,
    maxRepaid,
    allowance: state.allowance,
    owner,
  })
  const { fields } = positionFields(market, state, after)
  return engine.finish({
    owner,
    atBlock: state.blockNumber,
    steps,
    watch: [market.loanToken.address],
    issues: { balance: null, allowance: allowanceIssue },
    action: {
      type: 'repay',
      marketId: market.id,
      assets: assets.toString(),
      mode,
      shares: after.shares.toString(),
      debtBefore: debtBefore.toString(),
      maxRepaid: maxRepaid.toString(),
      ...fields,
    },
    quotedAt,
    expiresAt,
  })
}
