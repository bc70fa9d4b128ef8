import { AppError, type ErrorStatus, retryAfterOfCause } from '../errors.js'
import { GAS_LIMIT_REASON } from './facilitator/facilitatorReasons.js'

/** Stable codes for every way a payment can be refused. Each answers 402 with a fresh challenge. */
export const PAYMENT_ERRORS = {
  payment_malformed:
    'The payment header is not a base64 x402 v2 PaymentPayload with an EIP-3009 authorization (`exact`) or a ' +
    'deposit, voucher or refund (`batch-settlement`).',
  payment_wrong_scheme: 'Only the "exact" and "batch-settlement" schemes are accepted.',
  payment_wrong_network: 'Payments are accepted on eip155:8453 (Base) only.',
  payment_wrong_asset: 'The payment asset must be USDC at the address in the challenge.',
  payment_wrong_recipient: 'The authorization pays a different address than the challenge’s payTo.',
  payment_self_payment:
    'The paying wallet is the service’s own payTo address: such a transfer moves nothing. Pay from another wallet.',
  payment_invalid_signature:
    'The authorization signature does not match its fields: it was altered after signing or signed for another domain.',
  payment_underpaid:
    'The authorized value is below the quoted amount. Sign the amount in the challenge exactly.',
  payment_amount_mismatch:
    'The authorized value differs from the quoted amount. Sign the amount in the challenge exactly.',
  payment_quote_expired: 'The quoted price is no longer valid. Sign the amount in the new challenge.',
  payment_expired: 'The authorization has expired (validBefore must be at least 6 seconds ahead).',
  payment_not_yet_valid:
    'The authorization is not valid yet: validAfter must be at least 2 s in the past (a block is stamped up to a block time behind the clock).',
  payment_window_too_long:
    'The authorization stays valid for too long: validBefore may be at most the challenge’s maxTimeoutSeconds (plus 30 s of clock skew) ahead.',
  payment_insufficient_funds: 'The paying wallet does not hold enough USDC for this payment.',
  payment_replayed:
    'This authorization has already been used or is being used by another request. Sign a new one.',
  payment_settlement_failed:
    'The payment could not be settled onchain. Nothing was charged; sign a new authorization.',
  payment_gas_limit_exceeded:
    'Settling this authorization would cost more gas than the service pays for one settlement (the paying ' +
    'wallet’s signature check is too expensive). Nothing was charged; pay from a wallet whose ERC-1271 ' +
    'check is cheaper.',
  payment_payer_cooling_down:
    'A recent settlement from this wallet reverted onchain (its funds or its signature changed after the payment was accepted). Its payments are refused for a while; nothing was charged.',
  payment_payer_busy:
    'Another settlement from this wallet is still waiting for inclusion; a wallet settles one payment at a time. Nothing was charged; retry with a new authorization.',
  payment_voucher_stale:
    'The batch-settlement voucher does not follow the channel’s charged total (cumulative amount = charged so ' +
    'far + this call’s price). The challenge’s batch-settlement entry carries the channel state to resume from; ' +
    'nothing was charged.',
  payment_voucher_exceeds_deposit:
    'The batch-settlement voucher claims more than the channel holds: deposit more (a deposit payload) or ' +
    'refund and open a new channel. Nothing was charged.',
  payment_channel_busy:
    'Another call on this batch-settlement channel is in flight; a channel serves one call at a time. Nothing ' +
    'was charged; retry once it is answered.',
  payment_channel_withdrawing:
    'The batch-settlement channel has a timed withdrawal pending: it serves no more calls (its vouchers are ' +
    'being claimed before the withdrawal pays out). Nothing was charged; once the withdrawal is finalized the ' +
    'channel serves again within what it still holds, or open a new channel (another salt).',
  payment_channel_authorizer_required:
    'The batch-settlement channel names no payerAuthorizer (the zero address): its vouchers would be checked ' +
    'against the payer only when claimed, by the payer’s code if it has any (ERC-1271), which can stop ' +
    'accepting them after they were served. Name an EOA payerAuthorizer that signs the vouchers (the ' +
    'official client does), or pay with `exact`. Nothing was charged.',
  payment_channel_invalid:
    'The batch-settlement channel does not match the challenge (receiver, receiverAuthorizer, token, ' +
    'withdrawDelay or channel id), or is unknown to the service. Nothing was charged.',
  payment_deposit_too_small:
    'The batch-settlement deposit is below the challenge’s extra.minDeposit. Nothing was charged.',
} as const

export type PaymentErrorCode = keyof typeof PAYMENT_ERRORS

/**
 * The gate's answers other than a 402 refusal (the classes below): faults on our side (503), a URL too long
 * for its challenge (414), and the payment-identifier answers (409). Never charged.
 */
export const PAYMENT_FAULTS = {
  payment_challenge_too_long: {
    status: 414,
    meaning:
      'The request URL is too long for its payment challenge to fit the 8 kB PAYMENT-REQUIRED header (`field`: the ' +
      'part to shorten, usually the query string); nothing was charged.',
  },
  payment_facilitator_unavailable: {
    status: 503,
    meaning:
      'Payments cannot be processed right now: nothing was charged and the authorization stays usable; retry after Retry-After.',
  },
  payment_settlement_unknown: {
    status: 503,
    meaning:
      'The settlement failed and may still land: the call was not served; do not reuse the authorization (a transfer that lands anyway is recorded paid and unserved, for a refund).',
  },
  payment_identifier_conflict: {
    status: 409,
    meaning:
      'This wallet already used this payment identifier (`field`) with another payment or another request ' +
      '(`details.differs`: `payment` or `request`); nothing was charged. Use a new identifier for a new call.',
  },
  payment_in_progress: {
    status: 409,
    meaning:
      'The call this payment identifier and payment started is still being served; nothing more is charged. ' +
      'Send the same request again after Retry-After to get its answer.',
  },
} as const satisfies Record<string, { status: ErrorStatus; meaning: string }>

export class PaymentError extends AppError {
  override readonly name = 'PaymentError'
  constructor(
    readonly paymentCode: PaymentErrorCode,
    details?: Record<string, unknown>,
  ) {
    super(402, paymentCode, PAYMENT_ERRORS[paymentCode], undefined, details)
  }
}

/** The facilitator could not be reached or failed unexpectedly: a fault on our side, and free. */
export class FacilitatorUnavailableError extends AppError {
  override readonly name = 'FacilitatorUnavailableError'
  readonly retryAfterSec: number
  constructor(options?: { cause?: unknown }) {
    super(
      PAYMENT_FAULTS.payment_facilitator_unavailable.status,
      'payment_facilitator_unavailable',
      'Payments cannot be processed right now. Nothing was charged; retry shortly with a new authorization.',
      undefined,
      undefined,
      options,
    )
    this.retryAfterSec = retryAfterOfCause(options?.cause)
  }
}

/**
 * The settlement failed in a way that may follow a broadcast, and there is no transaction to watch: the
 * call is not served. The chain decides later; a transfer that lands anyway is recorded as paid and
 * unserved, for the operator to refund.
 */
export class SettlementUnknownError extends AppError {
  override readonly name = 'SettlementUnknownError'
  constructor() {
    super(
      PAYMENT_FAULTS.payment_settlement_unknown.status,
      'payment_settlement_unknown',
      'The settlement failed and may still land onchain; this call was not served. Do not reuse this ' +
        'authorization; sign a new one to retry. If its transfer lands, the service records it as paid and ' +
        'unserved, for a refund.',
    )
  }
}

/**
 * Facilitator reasons (x402 `invalidReason`/`errorReason`) mapped to our codes. Anything unknown is a
 * settlement failure: the caller learns it was not charged, never the raw RPC error.
 */
export function fromFacilitatorReason(reason: string | undefined): PaymentErrorCode {
  switch (reason) {
    case 'invalid_exact_evm_signature':
    case 'invalid_exact_evm_failed_to_parse_signature':
    case 'invalid_exact_evm_token_name_mismatch':
    case 'invalid_exact_evm_token_version_mismatch':
      return 'payment_invalid_signature'
    case 'invalid_exact_evm_recipient_mismatch':
      return 'payment_wrong_recipient'
    case 'invalid_exact_evm_network_mismatch':
      return 'payment_wrong_network'
    case 'invalid_exact_evm_scheme':
      return 'payment_wrong_scheme'
    case 'asset_not_deployed_contract':
    case 'invalid_exact_evm_eip3009_not_supported':
      return 'payment_wrong_asset'
    case 'invalid_exact_evm_payload_authorization_valid_before':
      return 'payment_expired'
    case 'invalid_exact_evm_payload_authorization_valid_after':
      return 'payment_not_yet_valid'
    case 'invalid_exact_evm_payload_authorization_value_mismatch':
    case 'invalid_exact_evm_authorization_value':
      return 'payment_amount_mismatch'
    case 'invalid_exact_evm_nonce_already_used':
      return 'payment_replayed'
    case 'invalid_exact_evm_insufficient_balance':
      return 'payment_insufficient_funds'
    case GAS_LIMIT_REASON:
      return 'payment_gas_limit_exceeded'
    default:
      return 'payment_settlement_failed'
  }
}

/** x402 batch-settlement reasons (the server scheme's hooks and the facilitator's) mapped to our codes. */
export function fromBatchReason(reason: string | undefined): PaymentErrorCode {
  switch (reason) {
    case 'invalid_batch_settlement_evm_cumulative_amount_mismatch':
    case 'invalid_batch_settlement_evm_cumulative_below_claimed':
    case 'invalid_batch_settlement_evm_charge_exceeds_signed_cumulative':
      return 'payment_voucher_stale'
    case 'invalid_batch_settlement_evm_cumulative_exceeds_balance':
    case 'invalid_batch_settlement_evm_insufficient_balance':
      return 'payment_voucher_exceeds_deposit'
    case 'invalid_batch_settlement_evm_channel_busy':
      return 'payment_channel_busy'
    case 'invalid_batch_settlement_evm_deposit_below_min_deposit':
      return 'payment_deposit_too_small'
    case 'invalid_batch_settlement_evm_voucher_signature':
    case 'invalid_batch_settlement_evm_receive_authorization_signature':
      return 'payment_invalid_signature'
    case 'invalid_batch_settlement_evm_receiver_mismatch':
      return 'payment_wrong_recipient'
    case 'invalid_batch_settlement_evm_token_mismatch':
      return 'payment_wrong_asset'
    case 'invalid_batch_settlement_evm_network_mismatch':
      return 'payment_wrong_network'
    case 'invalid_batch_settlement_evm_scheme':
      return 'payment_wrong_scheme'
    case 'invalid_batch_settlement_evm_payload_type':
    case 'invalid_batch_settlement_evm_refund_payload':
    case 'invalid_batch_settlement_evm_refund_amount_invalid':
      return 'payment_malformed'
    case 'invalid_batch_settlement_evm_payload_authorization_valid_before':
      return 'payment_expired'
    case 'invalid_batch_settlement_evm_payload_authorization_valid_after':
      return 'payment_not_yet_valid'
    case 'invalid_batch_settlement_evm_channel_id_mismatch':
    case 'invalid_batch_settlement_evm_channel_id_invalid':
    case 'invalid_batch_settlement_evm_receiver_authorizer_mismatch':
    case 'invalid_batch_settlement_evm_withdraw_delay_mismatch':
    case 'invalid_batch_settlement_evm_withdraw_delay_out_of_range':
    case 'invalid_batch_settlement_evm_channel_not_found':
    case 'invalid_batch_settlement_evm_missing_channel':
    case 'invalid_batch_settlement_evm_refund_no_balance':
      return 'payment_channel_invalid'
    case GAS_LIMIT_REASON:
      return 'payment_gas_limit_exceeded'
    default:
      return 'payment_settlement_failed'
  }
}

/**
 * The request's challenge would not fit CHALLENGE_HEADER_LIMIT (a very long URL, echoed in the challenge's
 * `resource.url`): a clear 414 naming the part to shorten, instead of a header proxies and clients refuse.
 */
export class ChallengeTooLongError extends AppError {
  override readonly name = 'ChallengeTooLongError'
  constructor(field: 'query' | 'path', headerLength: number, limit: number) {
    super(
      PAYMENT_FAULTS.payment_challenge_too_long.status,
      'payment_challenge_too_long',
      `The payment challenge for this URL would be ${headerLength} characters, over the ${limit} a PAYMENT-REQUIRED ` +
        `header may carry: shorten the ${field === 'query' ? 'query string' : 'path'}. Nothing was charged.`,
      field,
      { headerLength, limit },
    )
  }
}

/** Where a payment's identifier sits in its payload (the `payment-identifier` extension's `info.id`). */
export const PAYMENT_ID_FIELD = 'extensions.payment-identifier.info.id'

/**
 * The payer used this payment identifier for another payment or another request: the stored answer is not
 * this request's, and this one is not run (it would be a second call under one identifier).
 */
export class PaymentIdentifierConflictError extends AppError {
  override readonly name = 'PaymentIdentifierConflictError'
  constructor(differs: 'payment' | 'request') {
    super(
      PAYMENT_FAULTS.payment_identifier_conflict.status,
      'payment_identifier_conflict',
      `This wallet already used this payment identifier with ${differs === 'payment' ? 'another payment authorization' : 'another request (method, path, query or body)'}. ` +
        'Nothing was charged; use a new identifier for a new call.',
      PAYMENT_ID_FIELD,
      { differs },
    )
  }
}

/** A retry arrived while the call it repeats is still running: it must not run the handler a second time. */
export class PaymentInProgressError extends AppError {
  override readonly name = 'PaymentInProgressError'
  readonly retryAfterSec = 1
  constructor() {
    super(
      PAYMENT_FAULTS.payment_in_progress.status,
      'payment_in_progress',
      'The call started with this payment identifier and payment is still being served. Nothing more is charged; ' +
        'send the same request again shortly to get its answer.',
      PAYMENT_ID_FIELD,
    )
  }
}
