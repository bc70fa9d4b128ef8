import type { Address } from 'viem'
import { BuildRefusedError } from './builderErrors.js'
import type { LoanMarket } from './findMorphoMarket.js'
import {
  type BorrowTotals,
  healthNumber,
  type LoanHealth,
  type LoanPosition,
  loanHealth,
} from './loanMath.js'
import type { LoanState } from './loanState.js'
import { required } from './required.js'
import { tokenLabel } from './tokenLabel.js'

/**
 * What every loan builder's action reports beside its own fields: the market's tokens and the owner's
 * position once the bundle has run, priced at the quote (debt with interest accrued to `accruedTo`).
 */
export interface LoanPositionFields {
  loanToken: Address
  collateralToken: Address
  /** Unix seconds (the latest block's timestamp) the debt figures are accrued to. */
  accruedTo: number
  /** The market oracle's price (loan units per collateral unit × 1e36); null when it does not answer. */
  oraclePrice: string | null
  collateralAfter: string
  borrowSharesAfter: string
  debtAfter: string
  /** collateral × price / 1e36 × lltv: the most the position may owe; null without a price. */
  maxBorrowAfter: string | null
  /** maxBorrowAfter / debtAfter; null without debt (or without a price). */
  healthAfter: number | null
}

/** The position after the action, as action fields, and its health. */
export function positionFields(
  market: LoanMarket,
  state: LoanState,
  after: { position: LoanPosition; totals: BorrowTotals },
): { fields: LoanPositionFields; health: LoanHealth } {
  const health = loanHealth(after.position, after.totals, state.price, market.params.lltv)
  return {
    health,
    fields: {
      loanToken: market.loanToken.address,
      collateralToken: market.collateralToken.address,
      accruedTo: Number(state.accruedTo),
      oraclePrice: state.price === null ? null : state.price.toString(),
      collateralAfter: after.position.collateral.toString(),
      borrowSharesAfter: after.position.borrowShares.toString(),
      debtAfter: health.debt.toString(),
      maxBorrowAfter: health.maxBorrow === null ? null : health.maxBorrow.toString(),
      healthAfter: healthNumber(health.healthWad),
    },
  }
}

/**
 * Refuses, before simulating, an action that would leave the position with health ≤ 1 (debt at or above
 * the LLTV limit): Morpho refuses below 1 and the position would be liquidatable at 1. 422
 * `unhealthy_after` naming `field`, the resulting health factor in the details.
 */
export function assertHealthyAfter(
  market: LoanMarket,
  state: LoanState,
  health: LoanHealth,
  what: string,
  field = 'assets',
): void {
  if (health.healthy) return
  // A price is needed to judge a position with debt: a silent oracle is the chain's fault, not the caller's.
  const maxBorrow = required(health.maxBorrow ?? undefined, `the ${market.label} oracle price`)
  const factor = healthNumber(health.healthWad)
  throw new BuildRefusedError(
    'unhealthy_after',
    `After ${what} the position's health factor would be ${factor} (at most 1): a debt of ` +
      `${tokenLabel(health.debt, market.loanToken)} against a limit of ` +
      `${tokenLabel(maxBorrow, market.loanToken)} at the oracle price and the ${market.label} LLTV.`,
    field,
    {
      healthFactor: factor,
      healthFactorWad: health.healthWad?.toString() ?? null,
      debtAfter: health.debt.toString(),
      maxBorrowAfter: maxBorrow.toString(),
      oraclePrice: state.price?.toString() ?? null,
      accruedTo: Number(state.accruedTo),
      blockNumber: state.blockNumber.toString(),
    },
  )
}
