/**
 * Caches each key's value for `ttlMs` and coalesces concurrent loads of one key into a single upstream
 * call. Failures are not cached: the next caller tries again.
 */
export interface TtlCache<V> {
  get(key: string, load: () => Promise<V>): Promise<V>
}

export function createTtlCache<V>(
  ttlMs: number,
  now: () => number = Date.now,
  maxEntries = 5000,
): TtlCache<V> {
  const values = new Map<string, { value: V; expiresAt: number }>()
  const inFlight = new Map<string, Promise<V>>()
  return {
    async get(key, load) {
      const hit = values.get(key)
      if (hit !== undefined && hit.expiresAt > now()) return hit.value
      const pending = inFlight.get(key)
      if (pending !== undefined) return pending
      const promise = load()
        .then((value) => {
          if (values.size >= maxEntries) values.clear()
          values.set(key, { value, expiresAt: now() + ttlMs })
          return value
        })
        .finally(() => inFlight.delete(key))
      inFlight.set(key, promise)
      return promise
    },
  }
}
