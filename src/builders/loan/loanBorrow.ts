import { type Address, encodeFunctionData } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { atomicAmount } from '../../chain/fields.js'
import { morphoAbi } from '../../chain/morpho.js'
import { CHAIN_UPSTREAM } from '../../chain/multiRead.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { BuildRefusedError } from '../builderErrors.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { findMorphoMarket, type LoanMarket } from './findMorphoMarket.js'
import { afterBorrow } from './loanMath.js'
import { assertHealthyAfter, type LoanBody, loanActionFields, positionFields } from './loanPositionFields.js'
import { readLoanState } from './loanState.js'

export const loanBorrowAction = {
  type: z.literal('borrow'),
  ...loanActionFields,
  shares: atomicAmount.describe('Borrow shares minted, at the quote'),
}

export type LoanBorrowAction = ActionOf<typeof loanBorrowAction>

/** Pure: `borrow(params, assets, 0, owner, owner)`: the owner borrows against its own collateral. */
export function encodeLoanBorrow(p: { market: LoanMarket; assets: bigint; owner: Address }): TxStep {
  return {
    to: BASE_ADDRESSES.MorphoBlue,
    data: encodeFunctionData({
      abi: morphoAbi,
      functionName: 'borrow',
      args: [p.market.params, p.assets, 0n, p.owner, p.owner],
    }),
    value: 0n,
    description: `Borrow ${tokenLabel(p.assets, p.market.loanToken)} from the ${p.market.label} Morpho market`,
  }
}

export async function buildLoanBorrow(
  engine: BuilderEngine,
  body: LoanBody,
): Promise<BuilderEnvelope<LoanBorrowAction>> {
  const { owner, assets } = body
  const market = await findMorphoMarket(engine, body.marketId)
  const quotedAt = engine.nowSec()
  const state = await readLoanState(market, engine.chain, owner, null)
  const after = afterBorrow(state.position, state.totals, assets)
  const { fields, health } = positionFields(market, state, after)
  assertHealthyAfter(market, state, health, `borrowing ${tokenLabel(assets, market.loanToken)}`)
  // Morpho checks liquidity after health: the market must still hold what it lent out.
  const available = state.totals.totalSupplyAssets - state.totals.totalBorrowAssets
  if (assets > available)
    throw new BuildRefusedError(
      'insufficient_liquidity',
      `The ${market.label} market can lend at most ${tokenLabel(available, market.loanToken)} now.`,
      'assets',
      { available: available.toString() },
    )
  return engine.finish({
    owner,
    atBlock: state.blockNumber,
    steps: [encodeLoanBorrow({ market, assets, owner })],
    watch: [market.loanToken.address],
    // Nothing leaves the owner's wallet in this bundle: any token that would is refused (assertOutflows).
    outflows: { mayLeave: [], mayApprove: [], source: CHAIN_UPSTREAM },
    issues: { balance: null, allowance: null },
    action: {
      type: 'borrow',
      marketId: market.id,
      assets: assets.toString(),
      shares: after.shares.toString(),
      ...fields,
    },
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
