/**
 * Facilitator reasons of our own beside x402's (`errorReason`/`invalidReason` strings): the built-in
 * facilitator knows what x402's generic reason hides.
 */

/** The payment's verification or settlement needs more gas than SETTLEMENT_GAS_LIMIT. */
export const GAS_LIMIT_REASON = 'agentdesk_settlement_gas_limit'
/** The settlement failed before anything was broadcast (x402 says only "transaction failed"). */
export const NOT_BROADCAST_REASON = 'agentdesk_settlement_not_broadcast'
/** x402's reason for a `transferWithAuthorization` that threw, whether or not it had been broadcast. */
export const GENERIC_FAILURE = 'invalid_exact_evm_transaction_failed'
