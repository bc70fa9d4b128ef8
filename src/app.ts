import { Hono } from 'hono'
import { cors } from 'hono/cors'
import type { PublicClient } from 'viem'
import type { Config } from './config.js'
import { DISCOVERY_PATHS, mountDiscovery } from './discovery/mountDiscovery.js'
import { MethodNotAllowedError, NotFoundError } from './errors.js'
import type { AppEnv } from './http/env.js'
import { errorHandler } from './http/errorHandler.js'
import { methodMatcher } from './http/methodMatcher.js'
import { mountRoutes } from './http/mountRoutes.js'
import { type RateLimiter, unpaidRateLimit } from './http/rateLimiter.js'
import { requestContext } from './http/requestContext.js'
import type { Logger } from './logger.js'
import type { MarketData } from './market/marketData.js'
import type { Facilitator } from './payments/createFacilitator.js'
import type { FundsGuard } from './payments/fundsGuard.js'
import type { QuoteSigner } from './payments/quoteToken.js'
import type { SurgeMeter } from './payments/surgeMeter.js'
import type { Readiness } from './readiness.js'
import type { Route } from './routes/route.js'
import { routeTable } from './routes/table.js'
import type { Ledger } from './store/ledger.js'
import type { SharedState } from './store/sharedState.js'

/** Everything the app needs, passed in: tests build the same graph. */
export interface AppDeps {
  config: Config
  logger: Logger
  readiness: Readiness
  /** Milliseconds since the epoch; injectable so time-dependent logic is testable. */
  clock: () => number
  /** The one read client of the chain. */
  chain: PublicClient
  /** Durable settlements (PGlite or PostgreSQL). */
  ledger: Ledger
  /** Claims and counters shared by instances (memory or Redis). */
  state: SharedState
  limiter: RateLimiter
  facilitator: Facilitator
  /** Payments in flight, reserved against each payer's USDC balance. */
  funds: FundsGuard
  /** Whether an address holds code (smart wallets), cached briefly. */
  isContract: (address: `0x${string}`) => Promise<boolean>
  surge: SurgeMeter
  quotes: QuoteSigner
  /** Asks for a reconcile round soon: a settlement was served pending. */
  reconcileSoon: () => void
  market: MarketData
}

export interface CreateAppOptions {
  deps: AppDeps
  routes?: readonly Route[]
}

const EXPOSED_HEADERS = [
  'PAYMENT-REQUIRED',
  'PAYMENT-RESPONSE',
  'X-PAYMENT-RESPONSE',
  'X-Request-Id',
  'Retry-After',
  'Server-Timing',
]

export function createApp({ deps, routes = routeTable }: CreateAppOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>()
  app.use('*', requestContext({ logger: deps.logger }))
  // Agents may run in browsers: allow any origin and expose the payment headers they must read.
  app.use('*', cors({ origin: '*', exposeHeaders: EXPOSED_HEADERS, maxAge: 600 }))

  app.get('/health', (c) => c.json({ ok: true }))
  app.get('/ready', (c) => {
    const state = deps.readiness.state()
    return c.json(state, state.ready ? 200 : 503)
  })
  app.use('*', unpaidRateLimit(deps.limiter, deps.config.rateLimits.trustProxy, routes))

  mountRoutes(app, routes, deps)
  mountDiscovery(app, routes, deps.config)

  const allowed = methodMatcher([
    ...routes,
    ...DISCOVERY_PATHS.map((path) => ({ method: 'GET', path })),
    { method: 'GET', path: '/health' },
    { method: 'GET', path: '/ready' },
  ])
  app.notFound((c) => {
    const methods = allowed(c.req.path)
    throw methods.length > 0 ? new MethodNotAllowedError(methods) : new NotFoundError()
  })
  app.onError(errorHandler)
  return app
}
