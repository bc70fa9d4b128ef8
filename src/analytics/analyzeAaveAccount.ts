import { ORACLE_PRICE_SCALE, SECONDS_PER_YEAR, WAD } from '../chain/units.js'
import { DEFAULT_TARGET_HEALTH, type LoanStatus } from './analyzeLoan.js'
import { formatAtomicUp } from './formatAtomicUp.js'
import { type LiquidationRule, loanRisk } from './loanRisk.js'

/**
 * Risk analysis of an Aave v3 account from `Pool.getUserAccountData`: Aave is cross-margined, so the
 * figures are account-level, in its base currency (USD, 8 decimals), not per asset. Pure: no I/O, no clock.
 *
 * Aave's own math (GenericLogic.calculateUserAccountData), exactly, in bigints:
 * - capacity = percentMul(totalCollateralBase, currentLiquidationThreshold) = (C × lt + 5000) / 10000;
 * - healthFactor = wadDiv(capacity, totalDebtBase) = (capacity × 1e18 + D / 2) / D, which is the
 *   `healthFactor` Aave returns; null with no debt (Aave answers uint256 max);
 * - status 'liquidatable' iff debt > 0 and capacity ≤ debt (HF ≤ 1; Aave liquidates at HF < 1);
 * - liquidationCollateralUsd = D × 10000 / lt: the collateral value at which HF = 1, debt held;
 *   liquidationDistancePct = the % the whole collateral's value must fall for it, 0 or negative when
 *   already liquidatable; a falling collateral price with a stable debt (a volatile debt asset moves it too);
 * - timeToLiquidationSec = ln(capacity / debt) / r, r = ln(1 + borrowApr / 31536000) per second (Aave
 *   compounds the variable rate per second), collateral values held and its supply interest ignored
 *   (which errs early); 0 when liquidatable; null with no debt or a 0 / unknown rate;
 * - stress: collateral value × 0.9, 0.8, 0.7, the same formulas;
 * - restore: the least base amount (USD × 1e8, rounded up) repaid, or supplied as collateral with the
 *   account's current average liquidation threshold, after which capacity × 1e18 ≥ targetWad × debt.
 *   Convert to token atomic with the Aave oracle price (rounding up) for the builder.
 */
export interface AaveAccount {
  /** getUserAccountData.totalCollateralBase: USD × 1e8. */
  totalCollateralBase: bigint
  /** getUserAccountData.totalDebtBase: USD × 1e8. */
  totalDebtBase: bigint
  /** getUserAccountData.currentLiquidationThreshold: the collateral-weighted average, basis points. */
  currentLiquidationThreshold: bigint
  /** Debt-weighted variable borrow APR as a fraction (currentVariableBorrowRate / 1e27); null when unknown. */
  borrowApr: number | null
  /** Health factor to restore, > 1; default 1.5. */
  targetHealth?: number
}

export interface AaveStress {
  collateralChangePct: number
  collateralUsd: number
  healthFactor: number | null
  liquidatable: boolean
}

/** A base-currency amount: exact (USD × 1e8, atomic string) and as a USD number. */
export interface BaseAmount {
  base: string
  usd: number
  healthFactorAfter: number | null
}

export interface AaveAccountAnalysis {
  healthFactor: number | null
  status: LoanStatus
  collateralUsd: number
  debtUsd: number
  liquidationCollateralUsd: number | null
  liquidationDistancePct: number | null
  timeToLiquidationSec: number | null
  stress: AaveStress[]
  restore: { targetHealth: number; repay: BaseAmount | null; supplyCollateral: BaseAmount | null }
  advice: string
}

const BPS = 10_000n
const BASE_DECIMALS = 8

function aaveRule(lt: bigint): LiquidationRule {
  return {
    capacity: (value) => (value * lt + BPS / 2n) / BPS,
    // (value × lt + 5000) / 10000 ≥ m ⟺ value × lt ≥ m × 10000 − 5000.
    minValue: (m) => {
      if (lt === 0n) return m === 0n ? 0n : null
      const need = m * BPS - BPS / 2n
      return need <= 0n ? 0n : (need + lt - 1n) / lt
    },
    liquidationValue: (debt) => (lt === 0n ? null : (Number(debt) * 10_000) / Number(lt)),
    healthWad: (capacity, debt) => (capacity * WAD + debt / 2n) / debt,
  }
}

const usd = (base: bigint | number) => Number(base) / 1e8

export function analyzeAaveAccount(account: AaveAccount): AaveAccountAnalysis {
  const { totalCollateralBase: collateral, totalDebtBase: debt, currentLiquidationThreshold: lt } = account
  if (lt < 0n || lt > BPS) throw new RangeError('currentLiquidationThreshold must be basis points 0..10000')
  const apr = account.borrowApr
  if (apr !== null && (!Number.isFinite(apr) || apr < 0)) {
    throw new RangeError(`borrowApr must be a finite number ≥ 0, got ${apr}`)
  }
  const targetHealth = account.targetHealth ?? DEFAULT_TARGET_HEALTH

  // Collateral valued "as is": the price is 1 (× 1e36) and stress scales it.
  const risk = loanRisk({
    rule: aaveRule(lt),
    collateral,
    debt,
    price: ORACLE_PRICE_SCALE,
    ratePerSecond: apr === null ? 0 : Math.log1p(apr / SECONDS_PER_YEAR),
    targetHealth,
  })

  const liquidationCollateralUsd =
    risk.liquidationPrice === null ? null : (risk.liquidationPrice / 1e36) * usd(collateral)
  const repayText = risk.repay && `repay ${formatAtomicUp(risk.repay.assets, BASE_DECIMALS)} USD of debt`
  const supplyText =
    risk.supplyCollateral &&
    `add ${formatAtomicUp(risk.supplyCollateral.assets, BASE_DECIMALS)} USD of collateral`
  const fix = [repayText, supplyText].filter((t) => t).join(' or ')
  let advice: string
  if (debt === 0n) advice = 'No debt: nothing can be liquidated.'
  else if (risk.liquidatable) advice = `Liquidatable now: ${fix} to reach health ${targetHealth}.`
  else {
    const pct = Math.floor((risk.liquidationDistancePct ?? 0) * 10) / 10
    const room = `the collateral's value can fall about ${pct}% before liquidation`
    advice = risk.repay ? `At risk: ${room}; ${fix} to reach health ${targetHealth}.` : `Healthy: ${room}.`
  }

  return {
    healthFactor: risk.healthFactor,
    status: risk.liquidatable ? 'liquidatable' : 'solvent',
    collateralUsd: usd(collateral),
    debtUsd: usd(debt),
    liquidationCollateralUsd,
    liquidationDistancePct: risk.liquidationDistancePct,
    timeToLiquidationSec: risk.timeToLiquidationSec,
    stress: risk.stress.map((s) => ({
      collateralChangePct: s.priceChangePct,
      collateralUsd: usd((collateral * s.price) / ORACLE_PRICE_SCALE),
      healthFactor: s.healthFactor,
      liquidatable: s.liquidatable,
    })),
    restore: {
      targetHealth,
      repay: risk.repay && {
        base: risk.repay.assets.toString(),
        usd: usd(risk.repay.assets),
        healthFactorAfter: risk.repay.healthFactorAfter,
      },
      supplyCollateral: risk.supplyCollateral && {
        base: risk.supplyCollateral.assets.toString(),
        usd: usd(risk.supplyCollateral.assets),
        healthFactorAfter: risk.supplyCollateral.healthFactorAfter,
      },
    },
    advice,
  }
}
