import { Hono } from 'hono'
import { cors } from 'hono/cors'
import type { AppDeps } from './deps.js'
import { MethodNotAllowedError, NotFoundError } from './errors.js'
import type { AppEnv } from './http/env.js'
import { errorHandler } from './http/errorHandler.js'
import { EXPOSED_HEADERS } from './http/exposedHeaders.js'
import { methodMatcher } from './http/methodMatcher.js'
import { DISCOVERY_PATHS, mountDiscovery } from './http/mountDiscovery.js'
import { MCP_PATH, mountMcp } from './http/mountMcp.js'
import { mountRoutes } from './http/mountRoutes.js'
import { mountWeb, routeStatsMiddleware, WEB_PATHS } from './http/mountWeb.js'
import { requestContext } from './http/requestContext.js'
import { createRouteGates, type RouteGates } from './http/routeGates.js'
import { unpaidRateLimit } from './http/unpaidRateLimit.js'
import type { Route } from './routes/route.js'
import { routeTable } from './routes/table.js'
import { createRouteStats } from './web/routeStats.js'

export interface CreateAppOptions {
  deps: AppDeps
  routes?: readonly Route[]
  /** The priced routes' gates, when the unpaid fast path shares them (src/http/createHttpService.ts). */
  gates?: RouteGates
}

export function createApp({
  deps,
  routes = routeTable,
  gates = createRouteGates(routes, deps),
}: CreateAppOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>()
  app.use('*', requestContext({ logger: deps.logger }))
  const stats = createRouteStats()
  app.use('*', routeStatsMiddleware(stats))
  // Agents may run in browsers: allow any origin and expose the payment headers they must read.
  app.use('*', cors({ origin: '*', exposeHeaders: EXPOSED_HEADERS, maxAge: 600 }))

  app.get('/health', (c) => c.json({ ok: true }))
  app.get('/ready', (c) => {
    // Checks that are due start in the background; this answer is from their last results.
    void deps.readiness.refresh()
    const state = deps.readiness.state()
    // Upstreams whose circuit is open (down, or refusing our key: a 401/403 opens it) are named, without
    // making the service unready: its other routes still answer.
    return c.json({ ...state, openCircuits: deps.market.openCircuits() }, state.ready ? 200 : 503)
  })
  app.use('*', unpaidRateLimit(deps.limiter, deps.config.rateLimits.trustProxy, routes))

  mountRoutes(app, routes, deps, gates)
  mountDiscovery(app, routes, deps.config)
  mountMcp(app, routes, deps, gates)
  mountWeb(app, routes, deps, stats)

  const allowed = methodMatcher([
    ...routes,
    ...DISCOVERY_PATHS.map((path) => ({ method: 'GET', path })),
    ...['GET', 'POST', 'DELETE'].map((method) => ({ method, path: MCP_PATH })),
    ...WEB_PATHS,
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
