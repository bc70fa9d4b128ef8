import type { PublicClient } from 'viem'
import { createTtlCache, type TtlCache } from '../ttlCache.js'

/**
 * A TTL cache per chain client, for reads that take the client as their only dependency: each service
 * graph (and each test's) gets its own, and it goes away with the client.
 */
export function cachePerClient<V>(ttlMs: number): (chain: PublicClient) => TtlCache<V> {
  const caches = new WeakMap<PublicClient, TtlCache<V>>()
  return (chain) => {
    let cache = caches.get(chain)
    if (cache === undefined) {
      cache = createTtlCache<V>(ttlMs)
      caches.set(chain, cache)
    }
    return cache
  }
}
