import type { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { AppDeps } from '../deps.js'
import { MalformedBodyError } from '../errors.js'
import { createMcpHandler } from '../mcp/createMcpHandler.js'
import type { Route } from '../routes/route.js'
import { clientAddress } from './clientAddress.js'
import type { AppEnv } from './env.js'
import type { RouteGates } from './routeGates.js'

/** Where the MCP server answers (Streamable HTTP); the server card lists it. */
export const MCP_PATH = '/mcp'

/** The MCP server (src/mcp/) on the app, sharing the routes' payment gates with HTTP. */
export function mountMcp(
  app: Hono<AppEnv>,
  routes: readonly Route[],
  deps: AppDeps,
  gates: RouteGates,
): void {
  const handle = createMcpHandler(routes, deps, gates)
  const limit = bodyLimit({
    maxSize: deps.config.bodyLimitBytes,
    onError: () => {
      throw new MalformedBodyError(
        `The body is larger than ${deps.config.bodyLimitBytes} bytes.`,
        'body_too_large',
      )
    },
  })
  app.on(['GET', 'POST', 'DELETE'], MCP_PATH, limit, (c) =>
    handle({
      request: c.req.raw,
      client: clientAddress(c, deps.config.rateLimits.trustProxy),
      requestId: c.var.requestId,
      logger: c.var.logger,
    }),
  )
}
