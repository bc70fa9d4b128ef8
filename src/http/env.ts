import type { Logger } from '../logger.js'

/** Per-request variables every middleware and handler can read. */
export interface AppEnv {
  Variables: {
    requestId: string
    logger: Logger
  }
}
