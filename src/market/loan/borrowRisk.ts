import type { AaveAccount as AaveRiskInput } from '../../analytics/analyzeAaveAccount.js'
import { DEFAULT_TARGET_HEALTH, type LoanPosition } from '../../analytics/analyzeLoan.js'
import type { FixedPosition } from '../readFixedPositions.js'
import type { AaveAccount, MorphoBorrow } from '../readLendingPositions.js'

/** What identifies a Morpho Blue borrow in an answer: market, tokens, and amounts as atomic strings. */
export function morphoBorrowFields(b: MorphoBorrow) {
  return {
    protocol: 'morpho-blue' as const,
    marketId: b.marketId,
    collateralToken: b.collateralToken.address,
    collateralSymbol: b.collateralToken.symbol,
    collateral: b.collateral.toString(),
    loanToken: b.loanToken.address,
    loanSymbol: b.loanToken.symbol,
    debt: b.debt.toString(),
  }
}

/** The loan-risk input of a Morpho Blue borrow; null when its oracle did not answer (no price, no risk). */
export function morphoLoanPosition(
  b: MorphoBorrow,
  targetHealth = DEFAULT_TARGET_HEALTH,
): LoanPosition | null {
  if (b.oraclePrice === null) return null
  return {
    collateral: b.collateral,
    collateralDecimals: b.collateralToken.decimals,
    collateralSymbol: b.collateralToken.symbol,
    debt: b.debt,
    loanDecimals: b.loanToken.decimals,
    loanSymbol: b.loanToken.symbol,
    oraclePrice: b.oraclePrice,
    lltv: b.params.lltv,
    borrowRatePerSecond: b.borrowRate,
    targetHealth,
  }
}

/**
 * The loan-risk input of a Midnight borrow. Midnight debt is a fixed number of units due at maturity (no
 * accrual: rate null). Analysed per collateral only when one collateral backs the debt; a debt backed by
 * several collaterals has no single liquidation price, so it is null here (the caller says so).
 */
export function fixedLoanPosition(
  p: FixedPosition,
  targetHealth = DEFAULT_TARGET_HEALTH,
): LoanPosition | null {
  const [only, ...more] = p.collaterals
  if (p.debt === 0n || only === undefined || more.length > 0 || only.oraclePrice === null) return null
  return {
    collateral: only.amount,
    collateralDecimals: only.token.decimals,
    collateralSymbol: only.token.symbol,
    debt: p.debt,
    loanDecimals: p.loanToken.decimals,
    loanSymbol: p.loanToken.symbol,
    oraclePrice: only.oraclePrice,
    lltv: only.lltv,
    borrowRatePerSecond: null,
    targetHealth,
  }
}

/**
 * The account-level risk input of Aave v3: getUserAccountData's totals and threshold, and the borrow APR
 * weighted by each reserve's debt in base currency (currentVariableBorrowRate, ray). A reserve whose rate
 * or price is unknown leaves the APR null (no time-to-liquidation) rather than understated.
 */
export function aaveRiskInput(a: AaveAccount, targetHealth = DEFAULT_TARGET_HEALTH): AaveRiskInput {
  let weighted = 0
  let weight = 0
  let known = true
  for (const r of a.reserves) {
    if (r.borrowed === 0n) continue
    if (r.variableBorrowRate === null || r.price === null) {
      known = false
      continue
    }
    const debtBase = (Number(r.borrowed) / 10 ** r.asset.decimals) * Number(r.price)
    weighted += debtBase * (Number(r.variableBorrowRate) / 1e27)
    weight += debtBase
  }
  return {
    totalCollateralBase: a.totalCollateralBase,
    totalDebtBase: a.totalDebtBase,
    currentLiquidationThreshold: a.liquidationThresholdBps,
    borrowApr: known && weight > 0 ? weighted / weight : null,
    targetHealth,
  }
}
