import type { SettleResponse } from '@x402/core/types'
import type { TransactionReceipt } from 'viem'

/**
 * A settlement's answer; the built-in facilitator adds the receipt it waited for, so the gate can check
 * the transaction's own events without reading the receipt again.
 */
export type Settlement = SettleResponse & { receipt?: TransactionReceipt | undefined }

/**
 * The facilitator certainly did not act on the settlement: the connection was refused, it answered a
 * client error (4xx: unauthorized, malformed, rate-limited) without a settlement body, or our node
 * refused the transaction. Nothing can have been broadcast, so the payment can be released. Any other
 * failure (a timeout, a 5xx, a dropped connection) leaves the outcome unknown.
 */
export class SettlementNotAttemptedError extends Error {
  override readonly name = 'SettlementNotAttemptedError'
}
