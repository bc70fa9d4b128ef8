import { randomUUID } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import type { Logger } from '../logger.js'
import type { AppEnv } from './env.js'

/** A caller's X-Request-Id kept as the request's id; anything else gets a fresh UUID. */
export const INBOUND_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/

/**
 * Gives each request an id (the caller's X-Request-Id when it is sane, else a fresh UUID), a child logger
 * carrying it, and one access-log line when the response is done.
 */
export function requestContext({ logger }: { logger: Logger }): MiddlewareHandler<AppEnv> {
  return async function requestContext(c, next) {
    const inbound = c.req.header('x-request-id')
    const requestId = inbound !== undefined && INBOUND_REQUEST_ID.test(inbound) ? inbound : randomUUID()
    const log = logger.child({ requestId })
    c.set('requestId', requestId)
    c.set('logger', log)
    const started = performance.now()
    await next()
    c.header('X-Request-Id', requestId)
    const ms = Math.round((performance.now() - started) * 100) / 100
    log.info({
      msg: 'request',
      method: c.req.method,
      path: c.req.path,
      route: c.req.routePath,
      status: c.res.status,
      ms,
    })
  }
}
