import { Redis } from 'ioredis'
import { StoreUnavailableError } from '../errors.js'

/**
 * Short-lived state that instances behind one load balancer must agree on: in-flight claims on payment
 * authorizations and rate-limit counters. In memory by default; in Redis when REDIS_URL is set.
 */
export interface SharedState {
  readonly kind: 'memory' | 'redis'
  /** Atomically takes `key` for `ttlMs`; false when someone holds it already. */
  claim(key: string, ttlMs: number): Promise<boolean>
  release(key: string): Promise<void>
  /** Counts one hit in the fixed window `windowMs` that `key` names; returns the count and ms until reset. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>
  close(): Promise<void>
}

export function createSharedState(redisUrl: string | undefined, now: () => number = Date.now): SharedState {
  return redisUrl === undefined ? createMemoryState(now) : createRedisState(redisUrl)
}

export function createMemoryState(now: () => number = Date.now): SharedState {
  const entries = new Map<string, { count: number; expiresAt: number }>()
  let sweeps = 0
  const live = (key: string) => {
    const entry = entries.get(key)
    if (entry !== undefined && entry.expiresAt <= now()) {
      entries.delete(key)
      return undefined
    }
    return entry
  }
  // Expired keys are dropped lazily on access and in a sweep every 10k writes, so memory stays bounded.
  const sweep = () => {
    if (++sweeps % 10_000 !== 0) return
    const t = now()
    for (const [key, entry] of entries) if (entry.expiresAt <= t) entries.delete(key)
  }
  return {
    kind: 'memory',
    async claim(key, ttlMs) {
      if (live(key) !== undefined) return false
      sweep()
      entries.set(key, { count: 1, expiresAt: now() + ttlMs })
      return true
    },
    async release(key) {
      entries.delete(key)
    },
    async hit(key, windowMs) {
      let entry = live(key)
      if (entry === undefined) {
        sweep()
        entry = { count: 0, expiresAt: now() + windowMs }
        entries.set(key, entry)
      }
      entry.count += 1
      return { count: entry.count, resetMs: entry.expiresAt - now() }
    },
    async close() {
      entries.clear()
    },
  }
}

// INCR and the first PEXPIRE in one round trip, so a window can never be left without an expiry.
const HIT_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {c, redis.call('PTTL', KEYS[1])}
`

export function createRedisState(url: string): SharedState {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false })
  // Connection errors surface on the commands that fail; the client reconnects on its own.
  redis.on('error', () => {})
  const prefix = 'agentdesk:'
  // Claims and ceilings fail closed: without Redis nothing is served (503), so nothing is served twice.
  const guard = async <T>(command: Promise<T>): Promise<T> => {
    try {
      return await command
    } catch (err) {
      throw new StoreUnavailableError('shared state', { cause: err })
    }
  }
  return {
    kind: 'redis',
    async claim(key, ttlMs) {
      return (await guard(redis.set(prefix + key, '1', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX'))) === 'OK'
    },
    async release(key) {
      await guard(redis.del(prefix + key))
    },
    async hit(key, windowMs) {
      const reply = await guard(redis.eval(HIT_SCRIPT, 1, prefix + key, String(windowMs)))
      const [count, ttl] = reply as [number, number]
      return { count, resetMs: ttl < 0 ? windowMs : ttl }
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}
