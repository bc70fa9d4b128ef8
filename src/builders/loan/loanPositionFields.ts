import { z } from 'zod'
import { address, atomicAmount, marketId, positiveAtomicAmount } from '../../chain/fields.js'
import { owner } from '../bodyFields.js'
import { BuildRefusedError } from '../builderErrors.js'
import { required } from '../required.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf } from '../txStep.js'
import type { LoanMarket } from './findMorphoMarket.js'
import {
  type BorrowTotals,
  healthNumber,
  type LoanHealth,
  type LoanPosition,
  loanHealth,
} from './loanMath.js'
import type { LoanState } from './loanState.js'

/** The body every loan builder takes: a market and an amount (of collateral or of loan token). */
export const loanBody = z.strictObject({
  marketId: marketId.describe(
    'Morpho Blue market id (0x + 64 hex): its params are read from the chain and the id re-derived from them',
  ),
  assets: positiveAtomicAmount,
  owner,
})

export type LoanBody = z.output<typeof loanBody>

/**
 * What every loan builder's action reports beside its own fields: the market's tokens and the owner's
 * position once the bundle has run, priced at the quote (debt with interest accrued to `accruedTo`).
 */
const loanPositionFields = {
  loanToken: address.describe('The market’s loan token'),
  collateralToken: address.describe('The market’s collateral token'),
  accruedTo: z
    .number()
    .int()
    .describe(
      'Unix seconds (the timestamp of the block the state was read at, which is also the simulation’s `blockNumber`) the debt figures include interest up to',
    ),
  oraclePrice: atomicAmount
    .nullable()
    .describe(
      'The market oracle’s price: loan-token units per collateral unit × 1e36 (decimals included); null when the oracle does not answer (supply only)',
    ),
  collateralAfter: atomicAmount.describe('The owner’s collateral after the bundle (atomic collateral token)'),
  borrowSharesAfter: atomicAmount.describe('The owner’s borrow shares after the bundle, at the quote'),
  debtAfter: atomicAmount.describe(
    'The debt after the bundle (atomic loan token): borrow shares to assets, rounded up, with interest accrued to `accruedTo`',
  ),
  maxBorrowAfter: atomicAmount
    .nullable()
    .describe(
      'collateralAfter × oraclePrice / 1e36 × LLTV: the most the position may owe before Morpho refuses it (atomic loan token); null without a price',
    ),
  healthAfter: z
    .number()
    .nullable()
    .describe(
      'maxBorrowAfter / debtAfter; liquidatable at or below 1; null without debt (or without a price)',
    ),
}

export type LoanPositionFields = ActionOf<typeof loanPositionFields>

/** The market id and amount every loan action echoes, and the owner's position after the bundle. */
export const loanActionFields = {
  marketId: marketId.describe('The market, lowercase'),
  assets: atomicAmount.describe('As asked'),
  ...loanPositionFields,
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
