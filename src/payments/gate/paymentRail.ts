import { decodePaymentSignatureHeader } from '@x402/core/http'
import { BATCH_SCHEME } from '../batch/batchRail.js'

/**
 * Which way of paying a payment header uses, decided before anything else is checked: each rail has its own
 * admission (admitExact for `exact`, admitBatch for `batch-settlement`). Another rail (the
 * UTIL credit, next) is one more member here and one more branch in the gate.
 */
export type PaymentRail =
  /** `decoded` is undefined when the header does not decode: the exact rail refuses it as malformed. */
  { kind: 'exact'; decoded: unknown } | { kind: 'batch'; decoded: unknown }

export function paymentRail(header: string): PaymentRail {
  // Decoded once here; each rail reads the decoded payment.
  let decoded: unknown
  try {
    decoded = decodePaymentSignatureHeader(header)
  } catch {
    // Unreadable: the exact rail refuses it as malformed, as it always has.
    return { kind: 'exact', decoded: undefined }
  }
  const scheme = (decoded as { accepted?: { scheme?: unknown } } | null)?.accepted?.scheme
  return scheme === BATCH_SCHEME ? { kind: 'batch', decoded } : { kind: 'exact', decoded }
}
