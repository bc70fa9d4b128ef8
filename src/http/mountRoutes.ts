import type { Context, Hono } from 'hono'
import type { AppDeps } from '../deps.js'
import type { Route } from '../routes/route.js'
import { singleQueryValues } from '../routes/shared/parseInput.js'
import type { AppEnv } from './env.js'
import { paramCount, toHonoPath } from './honoPath.js'
import { jsonBodyLimit } from './jsonBodyLimit.js'
import { paymentMiddleware } from './paymentMiddleware.js'
import { readJsonBody } from './readJsonBody.js'
import type { RouteGates } from './routeGates.js'

/**
 * Mounts every route of the table. Static paths are registered before parametric ones so that
 * `/v1/ta/scan` is never read as `/v1/ta/{sym}`.
 */
export function mountRoutes(
  app: Hono<AppEnv>,
  routes: readonly Route[],
  deps: AppDeps,
  gates: RouteGates,
): void {
  const ordered = [...routes].sort((a, b) => paramCount(a.path) - paramCount(b.path))
  const limit = jsonBodyLimit(deps.config.bodyLimitBytes)
  for (const route of ordered) {
    const path = toHonoPath(route.path)
    const handler = async (c: Context<AppEnv>) => {
      const body = route.input.body ? await readJsonBody(c) : undefined
      const result = await route.run(
        { params: c.req.param(), query: singleQueryValues(c.req.queries()), body },
        { deps, routes, requestId: c.var.requestId, logger: c.var.logger, payer: c.var.payer },
      )
      return c.json(result, 200)
    }
    // The gate runs before the body is read or validated: an unpaid probe gets its 402, never a 400.
    if (route.priceUsd === null) {
      if (route.method === 'POST') app.post(path, limit, handler)
      else app.get(path, handler)
      continue
    }
    const routeGate = gates.get(route)
    if (routeGate === undefined) throw new Error(`${route.id} is priced but has no payment gate`)
    const gate = paymentMiddleware(routeGate, deps)
    if (route.method === 'POST') app.post(path, gate, limit, handler)
    else app.get(path, gate, handler)
  }
}
