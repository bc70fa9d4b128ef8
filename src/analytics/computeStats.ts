/** One closed trade as the stats need it (human USD, prices). */
export interface ClosedTrade {
  /** Realized net PnL. */
  pnlUsd: number
  /** Collateral at open. */
  collateralUsd: number
  leverage: number
  /** null when unknown: R then falls back to the collateral. */
  openPrice: number | null
  /** The stop at open; null when none was set or it is unknown. */
  sl: number | null
}

export interface TradeStats {
  trades: number
  /** pnl > 0. */
  wins: number
  /** pnl < 0 (a breakeven trade, pnl = 0, is neither). */
  losses: number
  /** wins / trades; null with no trades. */
  winRate: number | null
  netUsd: number
  /** Sum of winning pnl. */
  grossProfit: number
  /** Sum of losing pnl, as a positive number. */
  grossLoss: number
  /** grossProfit / grossLoss; null when grossLoss is 0 (no losses), never Infinity. */
  profitFactor: number | null
  /** Mean of pnl / R over all trades; null with no trades. */
  expectancyR: number | null
  /** grossProfit / wins; null with no wins. */
  avgWin: number | null
  /** grossLoss / losses (positive); null with no losses. */
  avgLoss: number | null
  /** Highest pnl; null with no trades. */
  bestTrade: number | null
  /** Lowest pnl; null with no trades. */
  worstTrade: number | null
}

/**
 * R, the money at risk: with a stop set, the loss at the stop, collateral × leverage × |open − sl| / open;
 * otherwise (no stop, or no open price) the collateral, the most an isolated-margin trade can lose.
 */
function riskOf(t: ClosedTrade): number {
  if (t.sl !== null && t.openPrice !== null && t.openPrice > 0) {
    const atStop = (t.collateralUsd * t.leverage * Math.abs(t.openPrice - t.sl)) / t.openPrice
    if (atStop > 0) return atStop
  }
  return t.collateralUsd
}

/** Pure trading statistics over closed trades (numbers in and out; no I/O). */
export function computeStats(trades: readonly ClosedTrade[]): TradeStats {
  const pnls = trades.map((t) => t.pnlUsd)
  const winners = pnls.filter((p) => p > 0)
  const losers = pnls.filter((p) => p < 0)
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0)
  const grossProfit = sum(winners)
  const grossLoss = Math.abs(sum(losers))
  const n = trades.length
  const rs = trades.flatMap((t) => {
    const r = riskOf(t)
    return r > 0 ? [t.pnlUsd / r] : []
  })
  return {
    trades: n,
    wins: winners.length,
    losses: losers.length,
    winRate: n === 0 ? null : winners.length / n,
    netUsd: sum(pnls),
    grossProfit,
    grossLoss,
    profitFactor: grossLoss === 0 ? null : grossProfit / grossLoss,
    expectancyR: rs.length === 0 ? null : sum(rs) / rs.length,
    avgWin: winners.length === 0 ? null : grossProfit / winners.length,
    avgLoss: losers.length === 0 ? null : grossLoss / losers.length,
    bestTrade: n === 0 ? null : Math.max(...pnls),
    worstTrade: n === 0 ? null : Math.min(...pnls),
  }
}
