import type { Address } from 'viem'
import { AppError } from '../errors.js'
import type { BuilderIssues } from './txStep.js'

/**
 * Refusals of the builder engine: all 422 (the body is well-formed, the chain would refuse the bundle),
 * all answered before anything is charged.
 */

/** The bundle reverts when simulated in order from the owner: `stepIndex` is the failing step. */
export class SimulationRevertedError extends AppError {
  override readonly name = 'SimulationRevertedError'
  constructor(stepIndex: number, reason: string, details: Record<string, unknown> = {}) {
    super(
      422,
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
      422,
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
      422,
      'unlisted_target',
      `${address} is not in this network's address book (GET /v1/earn/vaults, /v1/loan/markets and /v1/stocks list what builders accept). Nothing was charged.`,
      field,
      { address },
    )
  }
}

/** The chain would accept the bundle but it is refused on the caller's behalf (a guard the builder enforces). */
export class BuildRefusedError extends AppError {
  override readonly name = 'BuildRefusedError'
  constructor(code: string, message: string, field?: string, details?: Record<string, unknown>) {
    super(422, code, `${message} Nothing was charged.`, field, details)
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
