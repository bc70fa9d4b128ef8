/**
 * The protocol-neutral core of the loan-risk analysis (`analyzeLoan` for Morpho Blue and Midnight,
 * `analyzeAaveAccount` for Aave v3): one position as a collateral amount, a debt, an oracle price and a
 * liquidation rule, all exact bigints. Pure: no I/O, no clock.
 *
 * Conventions:
 * - `price` is the oracle's: loan units per collateral unit × 1e36 (decimals included), so a collateral
 *   amount is worth `value = floor(collateral × price / 1e36)` loan units (Morpho's `mulDivDown`).
 * - The rule turns that value into a borrow capacity with the protocol's own rounding; the position is
 *   liquidatable iff debt > 0 and capacity ≤ debt (health factor ≤ 1 in exact arithmetic: at exactly 1
 *   the contracts themselves still refuse a liquidation, but the next second of interest tips it over).
 * - Health factor = capacity / debt, from the rule's WAD division; null when there is no debt (infinite).
 * - "Health ≥ target" is the exact rational check capacity × 1e18 ≥ targetWad × debt, with the target
 *   taken to 6 decimals (targetWad = round(target × 1e6) × 1e12). Restore amounts are the least atomic
 *   amounts that pass it (so one atomic unit less fails).
 */
import { fromWad, ORACLE_PRICE_SCALE, WAD } from '../chain/units.js'

/** The collateral price moves the stress table applies, in percent. */
const STRESS_MOVES = [-10, -20, -30] as const

/** How a protocol turns collateral value into borrow capacity, with its own rounding. */
export interface LiquidationRule {
  /** Borrow capacity (loan units) of a collateral worth `value` loan units. */
  capacity(value: bigint): bigint
  /** The least collateral value whose capacity is ≥ `capacity`; null when none is (threshold 0). */
  minValue(capacity: bigint): bigint | null
  /** The collateral value (loan units, real) whose capacity equals `debt`; null when the threshold is 0. */
  liquidationValue(debt: bigint): number | null
  /** The health factor, WAD, as the protocol divides it (debt > 0). */
  healthWad(capacity: bigint, debt: bigint): bigint
}

export interface LoanRiskInput {
  rule: LiquidationRule
  /** Collateral, atomic. */
  collateral: bigint
  /** Debt, atomic loan units, interest accrued to now. */
  debt: bigint
  /** Oracle price: loan units per collateral unit × 1e36. */
  price: bigint
  /** Continuous borrow rate per second as a fraction (debt(t) = debt × e^(rate × t)); 0 for none. */
  ratePerSecond: number
  /** Health factor to restore; > 1, taken to 6 decimals. */
  targetHealth: number
}

export interface LoanRiskStress {
  priceChangePct: number
  /** The stressed oracle price (× 1e36), floor(price × (100 + change) / 100). */
  price: bigint
  healthFactor: number | null
  liquidatable: boolean
}

export interface LoanRisk {
  /** Borrow capacity at today's price. */
  capacity: bigint
  healthFactor: number | null
  liquidatable: boolean
  /** Oracle-scaled (× 1e36) price at which capacity equals the debt; null with no debt, no collateral or a 0 threshold. */
  liquidationPrice: number | null
  /** (price − liquidationPrice) / price × 100; ≤ 0 when already liquidatable; null when either is unknown or price is 0. */
  liquidationDistancePct: number | null
  /** ln(capacity / debt) / rate, rounded down; 0 when liquidatable; null with no debt or a 0 rate. */
  timeToLiquidationSec: number | null
  stress: LoanRiskStress[]
  /** The target as used, WAD. */
  targetWad: bigint
  /** Least repay (atomic loan units) reaching the target; null when already at or above it. */
  repay: { assets: bigint; debtAfter: bigint; healthFactorAfter: number | null } | null
  /** Least collateral to add (atomic) reaching the target; null when at or above it, or when no amount can (price or threshold 0). */
  supplyCollateral: { assets: bigint; collateralAfter: bigint; healthFactorAfter: number } | null
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b
}

function healthFactor(rule: LiquidationRule, capacity: bigint, debt: bigint): number | null {
  return debt === 0n ? null : fromWad(rule.healthWad(capacity, debt))
}

/** The health factor target as WAD, to 6 decimals; refuses anything not above 1. */
function targetToWad(targetHealth: number): bigint {
  if (!Number.isFinite(targetHealth) || targetHealth <= 1 || targetHealth > 1e6) {
    throw new RangeError(`targetHealth must be a number above 1 (at most 1e6), got ${targetHealth}`)
  }
  const micro = BigInt(Math.round(targetHealth * 1e6))
  if (micro <= 1_000_000n)
    throw new RangeError(`targetHealth must be above 1 to 6 decimals, got ${targetHealth}`)
  return micro * 10n ** 12n
}

/** The risk figures of one position; see the module comment for every convention. */
export function loanRisk(input: LoanRiskInput): LoanRisk {
  const { rule, collateral, debt, price, ratePerSecond } = input
  if (collateral < 0n || debt < 0n || price < 0n) {
    throw new RangeError('collateral, debt and price must not be negative')
  }
  if (!Number.isFinite(ratePerSecond) || ratePerSecond < 0) {
    throw new RangeError(`the borrow rate must be a finite number ≥ 0, got ${ratePerSecond}`)
  }
  const targetWad = targetToWad(input.targetHealth)
  const capacityAt = (c: bigint, p: bigint) => rule.capacity((c * p) / ORACLE_PRICE_SCALE)
  const capacity = capacityAt(collateral, price)
  const liquidatable = debt > 0n && capacity <= debt

  const liqValue = debt === 0n ? null : rule.liquidationValue(debt)
  const liquidationPrice =
    liqValue === null || collateral === 0n ? null : (liqValue * 1e36) / Number(collateral)
  const liquidationDistancePct =
    liquidationPrice === null || price === 0n
      ? null
      : ((Number(price) - liquidationPrice) / Number(price)) * 100

  let timeToLiquidationSec: number | null = null
  if (debt > 0n && ratePerSecond > 0) {
    timeToLiquidationSec = liquidatable
      ? 0
      : Math.floor(Math.log(Number(capacity) / Number(debt)) / ratePerSecond)
  }

  const stress = STRESS_MOVES.map((priceChangePct) => {
    const stressed = (price * BigInt(100 + priceChangePct)) / 100n
    const c = capacityAt(collateral, stressed)
    return {
      priceChangePct,
      price: stressed,
      healthFactor: healthFactor(rule, c, debt),
      liquidatable: debt > 0n && c <= debt,
    }
  })

  // Health ≥ target ⟺ capacity × 1e18 ≥ targetWad × debt ⟺ capacity ≥ ceil(targetWad × debt / 1e18).
  const atTarget = capacity * WAD >= targetWad * debt
  let repay: LoanRisk['repay'] = null
  let supplyCollateral: LoanRisk['supplyCollateral'] = null
  if (!atTarget) {
    // Largest debt the capacity carries at the target: floor(capacity × 1e18 / targetWad).
    const debtAfter = (capacity * WAD) / targetWad
    repay = {
      assets: debt - debtAfter,
      debtAfter,
      healthFactorAfter: healthFactor(rule, capacity, debtAfter),
    }

    const needed = ceilDiv(targetWad * debt, WAD)
    const value = rule.minValue(needed)
    if (value !== null && price > 0n) {
      // floor(c × price / 1e36) ≥ value ⟺ c × price ≥ value × 1e36.
      const collateralAfter = ceilDiv(value * ORACLE_PRICE_SCALE, price)
      const after = capacityAt(collateralAfter, price)
      supplyCollateral = {
        assets: collateralAfter - collateral,
        collateralAfter,
        healthFactorAfter: fromWad(rule.healthWad(after, debt)),
      }
    }
  }

  return {
    capacity,
    healthFactor: healthFactor(rule, capacity, debt),
    liquidatable,
    liquidationPrice,
    liquidationDistancePct,
    timeToLiquidationSec,
    stress,
    targetWad,
    repay,
    supplyCollateral,
  }
}
