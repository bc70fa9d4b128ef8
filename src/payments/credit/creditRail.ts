import type { CreditDebit, HoldResult } from './creditBook.js'

/**
 * The UTIL prepaid credit rail as the payment gate uses it (built in src/payments/credit/createCreditRail.ts). Money
 * rules as for settlements: a durable row for every change, conditional writes, nothing counted twice.
 */
export interface CreditRail {
  /**
   * Registers the top-up `txHash` for `payer` (who must be its UTIL transfer's sender), once across
   * instances. Throws a TopUpError (4xx, nothing changed) for a hash that cannot be credited, an
   * UpstreamError or StoreUnavailableError on a fault. Resolves to what was credited and the balance after.
   */
  topUp(payer: `0x${string}`, txHash: string, nowSec: number): Promise<{ credited: bigint; balance: bigint }>
  /** The wallet's credit now (USDC atomic units). */
  balance(wallet: `0x${string}`): Promise<bigint>
  hold(debit: CreditDebit): Promise<HoldResult>
  spend(id: number): Promise<boolean>
  release(id: number): Promise<boolean>
}

/** The rail's terms, stated alike in every challenge's `utilCredit`, `/auth.md` and `GET /v1/util-credit/{wallet}`. */
export const CREDIT_TERMS = {
  /** What a credit call costs, as a share of the posted price. */
  rate: 0.5,
  surgeExempt: true,
  /** A top-up's block must be younger than this (the spec's 24 hours). */
  maxTopUpAgeSec: 86_400,
  topUpHeader: 'X-UTIL-TOPUP',
  optOutHeader: 'X-UTIL-CREDIT',
  /** The pool oracle's window whose time-weighted mean price bounds a credit. */
  oracleWindowSec: 1800,
  /** A top-up is credited at most this share of the pool's USDC depth. */
  maxShareOfPool: 0.05,
  valuation:
    'USD value of the UTIL sent at the UTIL/USDC Uniswap v3 pool price: the least of the spot prices before and ' +
    'after the transfer block and the pool oracle’s time-weighted mean over the 30 minutes before it, and at ' +
    'most 5% of the pool’s USDC depth; fixed at top-up; credited to the sending wallet, which must sign the ' +
    'payment of the call carrying the header',
} as const

/** Credit calls cost half the posted price (rounded up to a whole atomic unit), whatever the surge. */
export function creditCost(baseAmount: bigint): bigint {
  return (baseAmount + 1n) / 2n
}
