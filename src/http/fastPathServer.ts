import { createServer, type RequestListener } from 'node:http'
import type { FastPath } from './unpaidFastPath.js'

/**
 * A `createServer` for @hono/node-server's `serve` that offers each request to `fast` before the app's
 * listener. A request the fast path declines, or fails on before answering, goes to the app untouched
 * (its body unread).
 */
export function fastPathServer(fast: FastPath): typeof createServer {
  return ((options: object, appListener: RequestListener) =>
    createServer(options, (req, res) => {
      fast(req, res).then(
        (handled) => {
          if (!handled) appListener(req, res)
        },
        () => {
          if (!res.headersSent) appListener(req, res)
        },
      )
    })) as typeof createServer
}
