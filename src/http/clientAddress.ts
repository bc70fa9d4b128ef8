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
  if (trustedProxies > 0) {
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter((h) => h !== '')
    const entry = hops[Math.max(0, hops.length - trustedProxies)]
    if (entry !== undefined) return entry
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    // In-process requests (app.request in tests) have no socket.
    return 'local'
  }
}
