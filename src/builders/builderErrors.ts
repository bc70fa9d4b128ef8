import type { Address } from 'viem'
import { AppError, type ErrorStatus } from '../errors.js'
import type { BuilderIssues } from './txStep.js'

/**
 * Every way a builder refuses a well-formed body, by its stable code: what the code means and the status it
 * answers. All are 422 (the body is valid, but the chain would refuse the bundle or a guard refuses it on
 * the caller's behalf) and all are answered before anything is charged. The message of each refusal names
 * the specifics (amounts, market, index); `field` names the input it is about.
 */
export const BUILD_ERRORS = {
  // The engine's own, for every builder.
  simulation_reverted: {
    status: 422,
    meaning:
      'The bundle reverts when simulated in order from the owner (`details.stepIndex`, the decoded `details.reason`).',
  },
  insufficient_balance: {
    status: 422,
    meaning:
      'The owner holds less than the bundle spends (`details.issues.balance`: token, actual, expected).',
  },
  unlisted_target: {
    status: 422,
    meaning: 'A token, vault or market is outside the network’s address book.',
  },
  not_a_token: { status: 422, meaning: 'A listed address does not answer like a transferable ERC-20 token.' },
  // Lending markets (Morpho Blue, Morpho Midnight, Aave, ERC-4626 vaults).
  unlisted_market: { status: 422, meaning: 'The market is not one this service builds for.' },
  unknown_market: { status: 422, meaning: 'The id names no market on this network.' },
  market_id_mismatch: { status: 422, meaning: 'The market’s params do not hash back to its id.' },
  idle_market: { status: 422, meaning: 'The market has no collateral token or oracle.' },
  unknown_collateral: { status: 422, meaning: 'The token is not a collateral of the market.' },
  matured: { status: 422, meaning: 'The fixed-rate market has matured: nothing can be lent or borrowed.' },
  not_matured: {
    status: 422,
    meaning: 'The fixed-rate market has not matured: credit cannot be withdrawn yet.',
  },
  not_repaid: { status: 422, meaning: 'Borrowers have not repaid enough of the matured market to withdraw.' },
  book_too_thin: { status: 422, meaning: 'The book holds less than asked within the slippage guard.' },
  insufficient_liquidity: { status: 422, meaning: 'The market cannot lend that much now.' },
  unhealthy_after: { status: 422, meaning: 'The position would be left liquidatable (health ≤ 1).' },
  exceeds_collateral: { status: 422, meaning: 'More collateral than the owner has in the market.' },
  exceeds_debt: { status: 422, meaning: 'More than the owner owes.' },
  exceeds_credit: { status: 422, meaning: 'More than the owner is owed.' },
  exceeds_max_deposit: { status: 422, meaning: 'More than the vault accepts from the owner now.' },
  exceeds_max_withdraw: { status: 422, meaning: 'More than the owner can withdraw from the vault now.' },
  withdraw_needs_request: {
    status: 422,
    meaning:
      'The vault pays out only after a withdraw request and an epoch timelock (gTrade’s gUSDC), a flow this service does not build.',
  },
  nothing_to_repay: { status: 422, meaning: 'The owner has no debt in the market.' },
  nothing_to_withdraw: { status: 422, meaning: 'The owner has nothing supplied to withdraw.' },
  // Liquidity (Aerodrome, Uniswap v3).
  pool_not_found: {
    status: 422,
    meaning: 'No pool pairs the tokens (at that fee); builders do not create pools.',
  },
  pool_empty: {
    status: 422,
    meaning: 'The pool holds no liquidity, so a first deposit would set its price.',
  },
  amounts_too_small: { status: 422, meaning: 'At the pool’s price the amounts mint or return nothing.' },
  position_not_found: { status: 422, meaning: 'The position manager holds no such position.' },
  not_position_owner: {
    status: 422,
    meaning: 'The owner neither holds the position nor is approved for it.',
  },
  exceeds_position_liquidity: { status: 422, meaning: 'More liquidity than the position holds.' },
  burn_needs_full_removal: {
    status: 422,
    meaning: 'Burning the position needs its whole liquidity removed.',
  },
  // The perp venue.
  unknown_pair: { status: 422, meaning: 'The venue lists no such pair.' },
  leverage_above_max: { status: 422, meaning: 'Above the pair’s maximum leverage.' },
  leverage_below_min: { status: 422, meaning: 'Below the pair’s minimum leverage.' },
  leverage_unchanged: { status: 422, meaning: 'The trade is already at that leverage.' },
  position_below_minimum: {
    status: 422,
    meaning: 'Collateral × leverage is under the pair’s minimum position.',
  },
  trade_not_found: { status: 422, meaning: 'The owner has no open trade or order at that index.' },
  order_not_found: { status: 422, meaning: 'The owner has no resting LIMIT or STOP order at that index.' },
  resting_order: {
    status: 422,
    meaning: 'The index is a resting order, which this change does not apply to.',
  },
  not_a_resting_order: { status: 422, meaning: 'The index is a filled trade, which has no trigger.' },
  order_pending: { status: 422, meaning: 'A market order on the trade is still waiting to be filled.' },
  close_pending: { status: 422, meaning: 'A market close of the trade is still waiting to be filled.' },
  decrease_too_large: {
    status: 422,
    meaning: 'The decrease reaches the trade’s whole collateral: close it instead.',
  },
  wrong_side: { status: 422, meaning: 'A take-profit or stop-loss is on the wrong side of the entry.' },
  // Tokenized stocks and UTIL.
  stock_feed_unavailable: {
    status: 422,
    meaning: 'The stock’s price feed has no usable answer to check the fill.',
  },
  fill_deviates_from_feed: { status: 422, meaning: 'The fill price is too far from the stock’s price feed.' },
  owner_is_burn_address: { status: 422, meaning: 'The owner is the dead address itself.' },
} as const satisfies Record<string, { status: ErrorStatus; meaning: string }>

export type BuildErrorCode = keyof typeof BUILD_ERRORS

/** A builder that cannot serve on this network profile at all (not a refusal of the body): never charged. */
export const BUILDER_FAULTS = {
  util_not_deployed: {
    status: 501,
    meaning:
      'UTIL is not deployed on this network profile (no UTIL_TOKEN configured): there is nothing to burn.',
  },
} as const satisfies Record<string, { status: ErrorStatus; meaning: string }>

/** The guards a builder enforces itself (the engine's own codes have their classes below). */
export type BuildRefusalCode = Exclude<
  BuildErrorCode,
  'simulation_reverted' | 'insufficient_balance' | 'unlisted_target'
>

/** The bundle reverts when simulated in order from the owner: `stepIndex` is the failing step. */
export class SimulationRevertedError extends AppError {
  override readonly name = 'SimulationRevertedError'
  constructor(stepIndex: number, reason: string, details: Record<string, unknown> = {}) {
    super(
      BUILD_ERRORS.simulation_reverted.status,
      'simulation_reverted',
      `Step ${stepIndex} reverts when the bundle is simulated from the owner: ${reason}. Nothing was charged.`,
      undefined,
      { stepIndex, reason, ...details },
    )
  }
}

/** The owner holds less than the bundle spends (0x's `issues.balance`), named before simulating. */
export class InsufficientBalanceError extends AppError {
  override readonly name = 'InsufficientBalanceError'
  constructor(field: string, issues: BuilderIssues, symbol: string) {
    const b = issues.balance
    super(
      BUILD_ERRORS.insufficient_balance.status,
      'insufficient_balance',
      `The owner holds ${b?.actual ?? '?'} atomic ${symbol}; the bundle needs ${b?.expected ?? '?'}. Nothing was charged.`,
      field,
      { issues },
    )
  }
}

/** A step would go to a contract outside the network's address book (a caller-supplied vault or token). */
export class UnlistedTargetError extends AppError {
  override readonly name = 'UnlistedTargetError'
  constructor(address: Address, field?: string) {
    super(
      BUILD_ERRORS.unlisted_target.status,
      'unlisted_target',
      `${address} is not in this network's address book (GET /v1/earn/vaults, /v1/loan/markets and /v1/stocks list what builders accept). Nothing was charged.`,
      field,
      { address },
    )
  }
}

/**
 * The chain would accept the bundle but it is refused on the caller's behalf (a guard the builder enforces):
 * a code of `BUILD_ERRORS`, and a message with the specifics.
 */
export class BuildRefusedError extends AppError {
  override readonly name = 'BuildRefusedError'
  constructor(
    readonly refusal: BuildRefusalCode,
    message: string,
    field?: string,
    details?: Record<string, unknown>,
  ) {
    super(BUILD_ERRORS[refusal].status, refusal, `${message} Nothing was charged.`, field, details)
  }
}

/** Throws 422 insufficient_balance (0x's `issues.balance`) when the owner holds less than the bundle spends. */
export function assertBalance(
  field: string,
  token: { address: Address; symbol: string },
  actual: bigint,
  expected: bigint,
): void {
  if (actual >= expected) return
  const issues: BuilderIssues = {
    balance: { token: token.address, actual: actual.toString(), expected: expected.toString() },
    allowance: null,
  }
  throw new InsufficientBalanceError(field, issues, token.symbol)
}
