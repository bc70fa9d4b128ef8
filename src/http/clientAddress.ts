import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'
import type { AppEnv } from './env.js'

/**
 * The caller's address: the socket's peer, or, behind `trustedProxies` proxies of ours, the
 * X-Forwarded-For entry the outermost of them appended (each proxy appends the peer it saw, so that is
 * the `trustedProxies`-th entry from the right). Entries to its left come from the client: trusting the
 * leftmost would let every request pick its own address, and its own rate ceiling.
 */
export function clientAddress(c: Context<AppEnv>, trustedProxies: number): string {
  const forwarded =
    trustedProxies > 0 ? forwardedClient(c.req.header('x-forwarded-for'), trustedProxies) : undefined
  if (forwarded !== undefined) return forwarded
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    // In-process requests (app.request in tests) have no socket.
    return 'local'
  }
}

/** The same rule over a raw request's X-Forwarded-For: the entry our outermost proxy appended, if any. */
export function forwardedClient(
  forwardedFor: string | undefined,
  trustedProxies: number,
): string | undefined {
  if (trustedProxies <= 0) return undefined
  const hops = (forwardedFor ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '')
  return hops[Math.max(0, hops.length - trustedProxies)]
}
