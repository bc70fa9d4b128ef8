import type { createServer } from 'node:http'
import type { Hono } from 'hono'
import { createApp } from './app.js'
import type { AppDeps } from './deps.js'
import type { AppEnv } from './http/env.js'
import { fastPathServer } from './http/fastPathServer.js'
import { createRouteGates } from './http/routeGates.js'
import { createUnpaidFastPath, type FastPath } from './http/unpaidFastPath.js'
import type { Route } from './routes/route.js'
import { routeTable } from './routes/table.js'

export interface HttpService {
  app: Hono<AppEnv>
  /** Unpaid 402s answered before the app (src/http/unpaidFastPath.ts). */
  fastPath: FastPath
  /** For @hono/node-server's `serve({ fetch: app.fetch, createServer })`: `fastPath` in front of the app. */
  createServer: typeof createServer
}

/** The app and the unpaid fast path in front of it, sharing the priced routes' payment gates. */
export function createHttpService({
  deps,
  routes = routeTable,
}: {
  deps: AppDeps
  routes?: readonly Route[]
}): HttpService {
  const gates = createRouteGates(routes, deps)
  const fastPath = createUnpaidFastPath({ routes, gates, deps })
  return { app: createApp({ deps, routes, gates }), fastPath, createServer: fastPathServer(fastPath) }
}
