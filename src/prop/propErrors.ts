import { AppError, type ErrorStatus, TRANSIENT_RETRY_AFTER_SEC } from '../errors.js'

/**
 * The prop desk's refusals. None is charged: the payment gate settles only a handler's 200. The two hash
 * codes are the spec's ("bad payTxHash", "bad burnTxHash"); `details.reason` says what is wrong.
 */
export const PROP_ERRORS = {
  bad_pay_tx_hash: {
    status: 422,
    meaning:
      'payTxHash is missing or is not a UTIL transfer from the paying wallet to the desk recipient, of at least ' +
      'the quoted UTIL, under 24 hours old and unused (`details.reason`: missing, malformed, unknown, not_mined, ' +
      'reverted, wrong_token, wrong_destination, wrong_sender, too_old, too_small or used).',
  },
  bad_burn_tx_hash: {
    status: 422,
    meaning:
      'burnTxHash is missing or is not a UTIL transfer from the paying wallet to the dead address, of at least ' +
      'the quoted UTIL, under 24 hours old and unused (`details.reason` as for bad_pay_tx_hash).',
  },
  prop_ineligible: {
    status: 403,
    meaning:
      'The paying wallet is not a desk member: its UTIL held, burned and sent to the desk are worth less than ' +
      '$500 together (`details` says how much it has and lacks).',
  },
  prop_payer_unproven: {
    status: 403,
    meaning:
      'The payment does not prove which wallet pays (a batch-settlement channel whose vouchers are signed by ' +
      'another key than its payer): the desk acts only for a proven wallet. Pay with `exact`, or from a channel ' +
      'whose payerAuthorizer is the payer.',
  },
  prop_over_allotment: {
    status: 422,
    meaning:
      'The action asks for more collateral or leverage than the member’s allotment (`field` names which).',
  },
  prop_over_exposure: {
    status: 422,
    meaning:
      'The open would take the member’s open desk positions past their allotment (total collateral, or notional), ' +
      'or the desk’s past PROP_DESK_MAX_OPEN_USDC (`details.scope`: member or desk, with the open and maximum figures).',
  },
  prop_pair_not_allowed: { status: 422, meaning: 'The desk does not trade this pair (`details.allowed`).' },
  prop_cooldown: {
    status: 429,
    meaning: 'The member’s last desk action is too recent; retry after Retry-After.',
  },
  prop_position_unknown: {
    status: 404,
    meaning: 'No desk position with this positionId was opened for the paying wallet.',
  },
  prop_position_pending: {
    status: 409,
    meaning: 'The position’s market order has not been filled by the venue yet; retry after Retry-After.',
  },
  prop_position_closed: { status: 409, meaning: 'The position is closed, or its close is under way.' },
  prop_desk_unavailable: {
    status: 503,
    meaning:
      'The desk cannot act now (no desk key configured, or its transaction failed); nothing was charged.',
  },
} as const satisfies Record<string, { status: ErrorStatus; meaning: string }>

export type PropErrorCode = keyof typeof PROP_ERRORS

export class PropError extends AppError {
  override readonly name = 'PropError'
  readonly retryAfterSec: number | undefined
  constructor(
    code: PropErrorCode,
    message: string,
    field?: string,
    details?: Record<string, unknown>,
    retryAfterSec?: number,
  ) {
    super(PROP_ERRORS[code].status, code, `${message} Nothing was charged.`, field, details)
    this.retryAfterSec =
      retryAfterSec ?? (PROP_ERRORS[code].status === 503 ? TRANSIENT_RETRY_AFTER_SEC : undefined)
  }
}
