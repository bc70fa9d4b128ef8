import { AppError, type ErrorStatus, TRANSIENT_RETRY_AFTER_SEC } from '../../errors.js'

/** The header a top-up rides on: every top-up refusal names it as its `field`. */
export const TOPUP_HEADER = 'X-UTIL-TOPUP'

/**
 * Every way a top-up (`X-UTIL-TOPUP: <txHash>`) is refused. Each refusal answers the whole request (the
 * call it rode on is not run), charges nothing and changes nothing.
 */
export const TOPUP_ERRORS = {
  topup_malformed: { status: 400, meaning: 'X-UTIL-TOPUP is not a 0x-prefixed 32-byte transaction hash.' },
  topup_unproven: {
    status: 400,
    meaning:
      'A top-up rides on a call paid with an `exact` authorization: its signature proves the wallet that sent ' +
      'the UTIL. Send it with such a payment.',
  },
  topup_unknown: { status: 422, meaning: 'No transaction with this hash is known to the chain.' },
  topup_not_mined: {
    status: 409,
    meaning:
      'The transaction is known but not in a block yet; send the header again once it is (Retry-After).',
  },
  topup_reverted: { status: 422, meaning: 'The transaction reverted: it moved no UTIL.' },
  topup_not_util: { status: 422, meaning: 'The transaction moved no UTIL (no UTIL Transfer event).' },
  topup_wrong_recipient: {
    status: 422,
    meaning: 'The transaction sent UTIL, but not to utilCredit.recipient (named in every 402 challenge).',
  },
  topup_wrong_sender: {
    status: 403,
    meaning:
      'The UTIL was sent by another wallet than the one that signed this request’s payment: a top-up credits ' +
      'its sender, who must present it.',
  },
  topup_too_old: { status: 422, meaning: 'The transfer’s block is 24 hours old or older.' },
  topup_used: {
    status: 409,
    meaning: 'This transaction was credited before (each top-up hash is single-use).',
  },
  topup_price_unavailable: {
    status: 503,
    meaning:
      'The UTIL/USDC pool’s own price oracle reached less than 60 seconds back before the transfer’s block ' +
      '(its observation ring was too small for its traffic), so the top-up cannot be valued safely. The reading ' +
      'at that block does not change: presenting the hash again gets the same answer. Ask the operator.',
  },
  topup_unavailable: {
    status: 501,
    meaning: 'This deployment offers no UTIL credit rail (no UTIL token or UTIL/USDC pool configured).',
  },
} as const satisfies Record<string, { status: ErrorStatus; meaning: string }>

export type TopUpErrorCode = keyof typeof TOPUP_ERRORS

export class TopUpError extends AppError {
  override readonly name = 'TopUpError'
  /** A transaction not mined yet is worth asking about again a block later. */
  readonly retryAfterSec: number | undefined
  constructor(
    readonly topUpCode: TopUpErrorCode,
    message?: string,
    details?: Record<string, unknown>,
  ) {
    super(
      TOPUP_ERRORS[topUpCode].status,
      topUpCode,
      message ?? `${TOPUP_ERRORS[topUpCode].meaning} Nothing was charged.`,
      TOPUP_HEADER,
      details,
    )
    this.retryAfterSec = topUpCode === 'topup_not_mined' ? TRANSIENT_RETRY_AFTER_SEC : undefined
  }
}
