import type { AppDeps } from '../deps.js'
import { createPaymentGate, type PaymentGate } from '../payments/gate/paymentGate.js'
import type { Route } from '../routes/route.js'

/** One payment gate per priced route, shared by the Hono middleware and the unpaid fast path. */
export type RouteGates = ReadonlyMap<Route, PaymentGate>

export function createRouteGates(routes: readonly Route[], deps: AppDeps): RouteGates {
  return new Map(
    routes
      .filter((r) => r.priceUsd !== null)
      .map((route) => [route, createPaymentGate(route, deps)] as const),
  )
}
