/**
 * The prop desk's terms, pure (issue 25; the spec's "Prop desk authorization"). A member qualifies with
 * $500 of UTIL held, burned and sent to the desk together; what the desk will put up for them (the
 * allotment) grows with their lifetime burn and their record of actions the desk executed for them.
 */
export const PROP_TERMS = {
  /** Combined USD value of UTIL held, burned and sent to the desk that makes a member. */
  qualificationUsd: 500,
  /** trade.open costs this share of the position's notional (collateral × leverage), at least `minCostUsd`. */
  openCostRate: 0.001,
  minCostUsd: 1,
  /** trade.close costs a flat fee. */
  closeCostUsd: 1,
  /** A new member's allotment: the most collateral and leverage the desk puts on one trade for them. */
  baseMaxCollateralUsdc: 100,
  baseMaxLeverage: 10,
  /** The desk never trades above this leverage, whatever the allotment. */
  leverageCap: 25,
  /** Lifetime burn (USD at today's price) that earns the burn's full share of the match factor. */
  burnForFullMatchUsd: 5_000,
  /** Executed desk actions that earn the record's full share of the match factor. */
  actionsForFullMatch: 20,
  /** The pairs the desk trades (gTrade pair indexes): BTC/USD and ETH/USD. */
  allowedPairs: [0, 1] as readonly number[],
  /** The authorizing transfer must be younger than this (the spec's 24 hours). */
  maxTransferAgeSec: 86_400,
  /** A quote's UTIL cost is honoured by execute for this long after the quote (its `quote.token`). */
  quoteValidSec: 300,
  /**
   * ...while the cost at the pool's price at execute is at most this much above it (percent): past that, the
   * UTIL/USDC price has fallen too far for the desk to keep the quote, and the price now applies.
   */
  quoteTolerancePct: 2,
} as const

/** What a member holds, burned and sent to the desk, in USD at the pool's price, and their desk record. */
export interface MemberStanding {
  heldUsd: number
  burnedUsd: number
  sentUsd: number
  /** Desk actions executed for the member (their onchain record with the desk). */
  executedActions: number
}

export interface Membership {
  combinedUsd: number
  eligible: boolean
  /** What the member lacks, in words; empty when eligible. */
  lacks: string[]
}

export function membership(s: MemberStanding): Membership {
  const combinedUsd = s.heldUsd + s.burnedUsd + s.sentUsd
  const eligible = combinedUsd >= PROP_TERMS.qualificationUsd
  return {
    combinedUsd,
    eligible,
    lacks: eligible
      ? []
      : [
          `UTIL held, burned and sent to the desk are worth $${combinedUsd.toFixed(2)} together; membership needs ` +
            `$${PROP_TERMS.qualificationUsd} (short by $${(PROP_TERMS.qualificationUsd - combinedUsd).toFixed(2)})`,
        ],
  }
}

/**
 * How much the desk matches a member, relative to a new member: 1 + min(1, lifetime burn / $5,000) +
 * min(1, executed actions / 20), so from 1× (new) to 3× (a heavy burner with a long record).
 */
export function matchFactor(s: Pick<MemberStanding, 'burnedUsd' | 'executedActions'>): number {
  const burn = Math.min(1, s.burnedUsd / PROP_TERMS.burnForFullMatchUsd)
  const record = Math.min(1, s.executedActions / PROP_TERMS.actionsForFullMatch)
  return Math.round((1 + burn + record) * 1e4) / 1e4
}

export interface Allotment {
  /** The most USDC collateral the desk puts on one trade for this member: $100 × matchFactor. */
  maxCollateralUsdc: number
  /** The most leverage: 10 × matchFactor, rounded down, at most 25 (and the pair's own maximum). */
  maxLeverage: number
  pairs: readonly number[]
}

export function allotment(factor: number): Allotment {
  return {
    maxCollateralUsdc: Math.floor(PROP_TERMS.baseMaxCollateralUsdc * factor * 100) / 100,
    maxLeverage: Math.min(PROP_TERMS.leverageCap, Math.floor(PROP_TERMS.baseMaxLeverage * factor)),
    pairs: PROP_TERMS.allowedPairs,
  }
}

/** What an action costs the member in USD (paid in UTIL at the pool's price). */
export function actionCostUsd(
  action: { actionId: 'trade.open'; notionalUsd: number } | { actionId: 'trade.close' },
): number {
  if (action.actionId === 'trade.close') return PROP_TERMS.closeCostUsd
  return Math.max(PROP_TERMS.minCostUsd, Math.round(action.notionalUsd * PROP_TERMS.openCostRate * 1e6) / 1e6)
}
