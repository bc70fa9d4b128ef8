import { TOPUP_ERRORS } from '../../payments/credit/topUpErrors.js'
import { PAYMENT_ERRORS } from '../../payments/paymentError.js'
import { ERROR_CODES, type ErrorCode } from './errorCodes.js'

/**
 * The codes a route answers without listing them, by its kind. A route record's `errors` lists only the
 * codes of its own handler's code path; these are added to it wherever the route's codes are used (the
 * OpenAPI responses, the docs, the undeclared-code check):
 *
 * - every route: `invalid_input` (input validation, before the handler), `rate_limited` and
 *   `store_unavailable` (the unpaid ceiling is kept in the shared state for every request),
 *   `not_implemented` (a capability not built yet) and `upstream_unavailable` (502: nearly every handler
 *   reads an upstream or the chain, and every operation has published a 502 since the first document, which
 *   may only grow, so the few that read neither keep it);
 * - a route with a body: `malformed_body`, `unsupported_media_type`, `body_too_large` (read before parsing);
 * - a priced route: every payment refusal (402, PAYMENT_ERRORS) the gate's other answers (PAYMENT_FAULTS) and
 *   a credit top-up's refusals (TOPUP_ERRORS: X-UTIL-TOPUP rides on any paid call);
 * - a builder: the engine's own checks of every bundle, `simulation_reverted` and `unlisted_target`.
 */
export const EVERY_ROUTE_ERRORS = [
  'invalid_input',
  'rate_limited',
  'store_unavailable',
  'not_implemented',
  'upstream_unavailable',
] as const satisfies readonly ErrorCode[]
export const BODY_ERRORS = [
  'malformed_body',
  'unsupported_media_type',
  'body_too_large',
] as const satisfies readonly ErrorCode[]
export const PRICED_ERRORS = [
  ...(Object.keys(PAYMENT_ERRORS) as (keyof typeof PAYMENT_ERRORS)[]),
  'payment_challenge_too_long',
  'payment_facilitator_unavailable',
  'payment_settlement_unknown',
  'payment_identifier_conflict',
  'payment_in_progress',
  ...(Object.keys(TOPUP_ERRORS) as (keyof typeof TOPUP_ERRORS)[]),
] as const satisfies readonly ErrorCode[]
export const ENGINE_ERRORS = [
  'simulation_reverted',
  'unlisted_target',
] as const satisfies readonly ErrorCode[]

/** What the rule needs of a route (structural, so route.ts can use it without a cycle). */
export interface ErrorCodedRoute {
  priceUsd: number | null
  tier: string
  input: { body?: unknown }
  errors: readonly ErrorCode[]
}

/** The codes implied by the route's kind (above), without its own list. */
export function impliedErrorCodes(route: Omit<ErrorCodedRoute, 'errors'>): ErrorCode[] {
  return [
    ...EVERY_ROUTE_ERRORS,
    ...(route.input.body === undefined ? [] : BODY_ERRORS),
    ...(route.priceUsd === null ? [] : PRICED_ERRORS),
    ...(route.tier === 'builder' ? ENGINE_ERRORS : []),
  ]
}

const ORDER = new Map(Object.keys(ERROR_CODES).map((code, i) => [code, i]))

/** Every code the route can answer: its own list and the implied ones, once each, in registry order. */
export function routeErrorCodes(route: ErrorCodedRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>([...impliedErrorCodes(route), ...route.errors])
  return [...codes].sort((a, b) => (ORDER.get(a) ?? 0) - (ORDER.get(b) ?? 0))
}
