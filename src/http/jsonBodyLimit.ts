import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { MalformedBodyError } from '../errors.js'
import type { AppEnv } from './env.js'

/** The body limit of every route that reads a body (the POST routes, /mcp): over it, 400 `body_too_large`. */
export function jsonBodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new MalformedBodyError(`The body is larger than ${maxBytes} bytes.`, 'body_too_large')
    },
  })
}
