import { fromWad, WAD } from '../chain/units.js'
import { formatAtomicUp } from './formatAtomicUp.js'
import { type LiquidationRule, loanRisk } from './loanRisk.js'

/**
 * Risk analysis of one isolated borrow (Morpho Blue; Midnight with its collateral's lltv and oracle and no
 * rate): health, liquidation price and distance, time to liquidation from interest alone, a stress table
 * and the least repay or collateral that restores a target health. Pure: no I/O, no clock.
 *
 * Morpho's own math (Morpho.sol `_isHealthy`, blue-sdk `MarketUtils`), exactly, in bigints:
 * - capacity (max borrow) = floor(floor(collateral × oraclePrice / 1e36) × lltv / 1e18);
 * - healthFactor = floor(capacity × 1e18 / debt) / 1e18; null with no debt (infinite);
 * - status 'liquidatable' iff debt > 0 and capacity ≤ debt (HF ≤ 1; Morpho itself liquidates only at
 *   capacity < debt, one more second of interest later);
 * - liquidationPrice = debt × 1e36 × 1e18 / (collateral × lltv) in oracle scale, shown human (loan tokens
 *   per whole collateral token); liquidationDistancePct = (price − liquidationPrice) / price × 100, the %
 *   the collateral price must fall; 0 or negative when already liquidatable (how far below it is);
 * - timeToLiquidationSec = ln(capacity / debt) / r with r = borrowRatePerSecond / 1e18, the debt growing
 *   as debt × e^(r t) (Morpho's continuous accrual; its Taylor form is slightly lower over long idle gaps)
 *   at today's rate and price; 0 when liquidatable; null with no debt or a 0 / unknown rate;
 * - stress: the oracle price × 0.9, 0.8, 0.7 (rounded down), the same formulas;
 * - restore: the least atomic repay / added collateral after which capacity × 1e18 ≥ targetWad × debt
 *   (target to 6 decimals), rounded up, so one atomic unit less falls short. Amounts are against today's
 *   accrued debt, before Morpho's share rounding (a by-assets repay can leave 1 atomic unit more debt):
 *   a caller acting later should add a margin for the interest accrued meanwhile.
 */
export interface LoanPosition {
  /** Collateral, atomic. */
  collateral: bigint
  collateralDecimals: number
  collateralSymbol: string
  /** Debt, atomic loan token, interest accrued to now (from borrow shares, rounded up as Morpho does). */
  debt: bigint
  loanDecimals: number
  loanSymbol: string
  /** Morpho oracle `price()`: loan atomic per collateral atomic × 1e36. */
  oraclePrice: bigint
  /** Liquidation LTV, WAD (0.86e18). */
  lltv: bigint
  /** Borrow rate per second, WAD (the IRM's `borrowRateView`); null when there is none (fixed-rate Midnight). */
  borrowRatePerSecond: bigint | null
  /** Health factor to restore, > 1; default 1.5. */
  targetHealth?: number
}

export type LoanStatus = 'solvent' | 'liquidatable'

export interface LoanStress {
  priceChangePct: number
  /** Stressed collateral price, loan tokens per whole collateral token. */
  price: number
  healthFactor: number | null
  liquidatable: boolean
}

export interface LoanRestore {
  targetHealth: number
  /** Inputs for /v1/tx/loan/repay (with marketId and owner); null when already at or above the target. */
  repay: { assets: string; debtAfter: string; healthFactorAfter: number | null } | null
  /** Inputs for /v1/tx/loan/supply-collateral; null when at or above the target, or no amount can reach it (price or lltv 0). */
  supplyCollateral: { assets: string; collateralAfter: string; healthFactorAfter: number } | null
}

export interface LoanAnalysis {
  healthFactor: number | null
  status: LoanStatus
  /** Oracle price now, loan tokens per whole collateral token. */
  price: number
  liquidationPrice: number | null
  liquidationDistancePct: number | null
  timeToLiquidationSec: number | null
  stress: LoanStress[]
  restore: LoanRestore
  /** One plain sentence. */
  advice: string
}

export const DEFAULT_TARGET_HEALTH = 1.5

function morphoRule(lltv: bigint): LiquidationRule {
  return {
    capacity: (value) => (value * lltv) / WAD,
    // floor(value × lltv / 1e18) ≥ m ⟺ value × lltv ≥ m × 1e18.
    minValue: (m) => (lltv === 0n ? null : (m * WAD + lltv - 1n) / lltv),
    liquidationValue: (debt) => (lltv === 0n ? null : (Number(debt) * 1e18) / Number(lltv)),
    healthWad: (capacity, debt) => (capacity * WAD) / debt,
  }
}

function checkDecimals(name: string, d: number): void {
  if (!Number.isInteger(d) || d < 0 || d > 36)
    throw new RangeError(`${name} must be an integer 0..36, got ${d}`)
}

/** About `pct`, rounded down to one decimal (never overstating the room left). */
function aboutPct(pct: number): string {
  return `${Math.floor(pct * 10) / 10}%`
}

export function analyzeLoan(position: LoanPosition): LoanAnalysis {
  const { collateralDecimals: cd, loanDecimals: ld, lltv, borrowRatePerSecond: rate } = position
  checkDecimals('collateralDecimals', cd)
  checkDecimals('loanDecimals', ld)
  if (lltv < 0n || lltv > WAD) throw new RangeError('lltv must be a WAD fraction in 0..1e18')
  if (rate !== null && rate < 0n) throw new RangeError('borrowRatePerSecond must not be negative')
  const targetHealth = position.targetHealth ?? DEFAULT_TARGET_HEALTH

  const risk = loanRisk({
    rule: morphoRule(lltv),
    collateral: position.collateral,
    debt: position.debt,
    price: position.oraclePrice,
    ratePerSecond: rate === null ? 0 : fromWad(rate),
    targetHealth,
  })

  // Oracle scale → loan tokens per whole collateral token.
  const human = (scaled: number) => (scaled / 1e36) * 10 ** (cd - ld)
  const price = human(Number(position.oraclePrice))
  const liquidationPrice = risk.liquidationPrice === null ? null : human(risk.liquidationPrice)

  const coll = position.collateralSymbol
  const loan = position.loanSymbol
  const repayText = risk.repay && `repay ${formatAtomicUp(risk.repay.assets, ld)} ${loan}`
  const supplyText =
    risk.supplyCollateral && `add ${formatAtomicUp(risk.supplyCollateral.assets, cd)} ${coll}`
  const fix = [repayText, supplyText].filter((t) => t).join(' or ')
  let advice: string
  if (position.debt === 0n) advice = 'No debt: nothing can be liquidated.'
  else if (risk.liquidatable) advice = `Liquidatable now: ${fix} to reach health ${targetHealth}.`
  else {
    const room =
      risk.liquidationDistancePct === null
        ? ''
        : `${coll} can fall about ${aboutPct(risk.liquidationDistancePct)} before liquidation`
    advice = risk.repay ? `At risk: ${room}; ${fix} to reach health ${targetHealth}.` : `Healthy: ${room}.`
  }

  return {
    healthFactor: risk.healthFactor,
    status: risk.liquidatable ? 'liquidatable' : 'solvent',
    price,
    liquidationPrice,
    liquidationDistancePct: risk.liquidationDistancePct,
    timeToLiquidationSec: risk.timeToLiquidationSec,
    stress: risk.stress.map((s) => ({
      priceChangePct: s.priceChangePct,
      price: human(Number(s.price)),
      healthFactor: s.healthFactor,
      liquidatable: s.liquidatable,
    })),
    restore: {
      targetHealth,
      repay: risk.repay && {
        assets: risk.repay.assets.toString(),
        debtAfter: risk.repay.debtAfter.toString(),
        healthFactorAfter: risk.repay.healthFactorAfter,
      },
      supplyCollateral: risk.supplyCollateral && {
        assets: risk.supplyCollateral.assets.toString(),
        collateralAfter: risk.supplyCollateral.collateralAfter.toString(),
        healthFactorAfter: risk.supplyCollateral.healthFactorAfter,
      },
    },
    advice,
  }
}
