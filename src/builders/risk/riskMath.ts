import { parseUnits } from 'viem'

/**
 * Pure gTrade v10 arithmetic of the perp builders (protocols.md §1), in the venue's integer units: prices
 * 1e10, leverage 1e3, USDC 6 dp, "P" fee and spread values percent x1e10 (so a fraction is P / 1e12),
 * maxSlippageP percent x1e3. Integer divisions truncate like Solidity's, in the venue's order.
 */
export const PRICE_DECIMALS = 10
export const LEVERAGE_DECIMALS = 3
export const SLIPPAGE_DECIMALS = 3
/** P values are percent x1e10: P / 1e12 is the fraction. */
const P_DENOM = 10n ** 12n
const LEV = 1000n
/** gTrade caps a trade's profit at +900 % of its collateral. */
const MAX_PROFIT_PCT = 900n

/** A human number in the venue's fixed point (toFixed avoids exponent notation; excess digits round). */
export function scaled(value: number, decimals: number): bigint {
  return parseUnits(value.toFixed(decimals), decimals)
}

/** Position size in collateral: collateral × leverage. */
export const positionSize = (collateral: bigint, leverage: bigint): bigint => (collateral * leverage) / LEV

/** The fee on a position size (open and close each pay totalPositionSizeFeeP of the size). */
export const positionFee = (size: bigint, feeP: bigint): bigint => (size * feeP) / P_DENOM

/** Expected execution price: the oracle price moved half the pair spread against the trader. */
export function fillPrice(price: bigint, spreadP: bigint, long: boolean, open: boolean): bigint {
  const halfSpread = (price * spreadP) / 2n / P_DENOM
  return long === open ? price + halfSpread : price - halfSpread
}

export interface OpenTradeNumbers {
  collateral: bigint
  leverage: bigint
  openPrice: bigint
  long: boolean
}

export interface CloseEstimate {
  /** Raw PnL of the whole position at the exit price, capped at +900 %. */
  pnl: bigint
  closingFee: bigint
  /** What the close pays the trader: collateral + pnl − closing fee, floored at 0. */
  value: bigint
}

/** What a full market close pays at `exitPrice` (already spread-adjusted), before holding fees. */
export function closeEstimate(t: OpenTradeNumbers, exitPrice: bigint, feeP: bigint): CloseEstimate {
  const size = positionSize(t.collateral, t.leverage)
  const diff = t.long ? exitPrice - t.openPrice : t.openPrice - exitPrice
  let pnl = (size * diff) / t.openPrice
  const maxProfit = (((size * LEV) / t.leverage) * MAX_PROFIT_PCT) / 100n
  if (pnl > maxProfit) pnl = maxProfit
  const closingFee = positionFee(size, feeP)
  const v = t.collateral + pnl - closingFee
  return { pnl, closingFee, value: v > 0n ? v : 0n }
}

/**
 * updateLeverage keeps the position size: the collateral becomes collateral × leverage / newLeverage.
 * Positive: the trader tops up (a decrease); negative: collateral is returned (an increase).
 */
export function leverageCollateralDelta(collateral: bigint, leverage: bigint, newLeverage: bigint): bigint {
  return (collateral * leverage) / newLeverage - collateral
}

/** A side rule broken: the body field and why. */
export interface SideProblem {
  field: 'tp' | 'sl' | 'triggerPrice'
  message: string
}

/** TP above and SL below the entry for a long, mirrored for a short (0 = none); the venue reverts otherwise. */
export function tpSlProblem(long: boolean, entry: number, tp?: number, sl?: number): SideProblem | null {
  const dir = long ? 'above' : 'below'
  const opposite = long ? 'below' : 'above'
  if (tp !== undefined && tp !== 0 && (long ? tp <= entry : tp >= entry))
    return { field: 'tp', message: `must be ${dir} the entry ${entry} for a ${long ? 'long' : 'short'}.` }
  if (sl !== undefined && sl !== 0 && (long ? sl >= entry : sl <= entry))
    return {
      field: 'sl',
      message: `must be ${opposite} the entry ${entry} for a ${long ? 'long' : 'short'}.`,
    }
  return null
}

/**
 * A LIMIT buys a dip (long: trigger below the mark) and a STOP a breakout (long: above), mirrored for a
 * short; a trigger on the other side would fill at once or never as meant.
 */
export function triggerProblem(
  tradeType: 1 | 2,
  long: boolean,
  trigger: number,
  mark: number,
): SideProblem | null {
  const below = (tradeType === 1) === long
  if (below ? trigger < mark : trigger > mark) return null
  const kind = tradeType === 1 ? 'LIMIT' : 'STOP'
  return {
    field: 'triggerPrice',
    message: `must be ${below ? 'below' : 'above'} the mark ${mark} for a ${kind} ${long ? 'long' : 'short'}.`,
  }
}
