import type { IncomingMessage } from 'node:http'
import type { Logger } from '../logger.js'

/** Per-request variables every middleware and handler can read. */
export interface AppEnv {
  /** Set by @hono/node-server when served over a socket; absent for in-process requests (app.request). */
  Bindings: { incoming?: IncomingMessage }
  Variables: {
    requestId: string
    logger: Logger
    /**
     * The wallet whose payment the gate admitted, when the payment proves it (priced routes only, set
     * before the handler runs).
     */
    payer?: `0x${string}`
  }
}
