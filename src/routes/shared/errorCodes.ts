import { BUILD_ERRORS, BUILDER_FAULTS } from '../../builders/builderErrors.js'
import { type ErrorStatus, GENERIC_ERRORS } from '../../errors.js'
import { READ_ERRORS } from '../../market/readErrors.js'
import { TOPUP_ERRORS } from '../../payments/credit/topUpErrors.js'
import { PAYMENT_ERRORS, PAYMENT_FAULTS } from '../../payments/paymentError.js'
import { PROP_ERRORS } from '../../prop/propErrors.js'

/** What the registry says of one code. */
export interface ErrorCodeInfo {
  status: ErrorStatus
  meaning: string
}

const PAYMENT_REFUSALS = Object.fromEntries(
  Object.entries(PAYMENT_ERRORS).map(([code, meaning]) => [code, { status: 402, meaning }]),
) as { [C in keyof typeof PAYMENT_ERRORS]: { status: 402; meaning: (typeof PAYMENT_ERRORS)[C] } }

/**
 * Every error code the API can answer with, once: the generic ones (src/errors.ts), the payment gate's
 * (PAYMENT_ERRORS, answered 402, and PAYMENT_FAULTS: 503, 414, 409), the credit top-up's (TOPUP_ERRORS), the prop desk's (PROP_ERRORS), the builders' (BUILD_ERRORS and BUILDER_FAULTS) and
 * the reads' (READ_ERRORS). A route lists the ones it answers by these keys (`Route.errors`); the OpenAPI
 * responses and the error lists of docs/ are generated from here (scripts/generateErrorDocs.ts).
 * test/errorCodes.test.ts checks the maps share no key.
 */
export const ERROR_CODES = {
  ...GENERIC_ERRORS,
  ...PAYMENT_REFUSALS,
  ...PAYMENT_FAULTS,
  ...TOPUP_ERRORS,
  ...PROP_ERRORS,
  ...BUILD_ERRORS,
  ...BUILDER_FAULTS,
  ...READ_ERRORS,
} as const satisfies Record<string, ErrorCodeInfo>

export type ErrorCode = keyof typeof ERROR_CODES

/** The registry's entry of a string, when it is a registered code. */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code)
}
