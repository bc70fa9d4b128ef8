import type { ChannelStorage } from '@x402/evm/batch-settlement/server'
import {
  RedisChannelStorage,
  type RedisChannelStorageClient,
} from '@x402/evm/batch-settlement/server/redis-storage'
import { Redis } from 'ioredis'

/**
 * x402's own RedisChannelStorage (compare-and-set in one Lua script per update, so instances sharing Redis
 * never interleave on a channel) over our ioredis client: the package speaks node-redis' call shapes
 * (options objects, `scanIterator`), translated here and nowhere else.
 */
export function createRedisChannelStorage(
  url: string,
  keyPrefix = 'agentdesk:x402:batch-settlement',
): { storage: ChannelStorage; close(): void } {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false })
  // Connection errors surface on the commands that fail; the client reconnects on its own.
  redis.on('error', () => {})
  const client: RedisChannelStorageClient = {
    get: (key) => redis.get(key),
    async set(key, value, options) {
      const px = options?.PX
      if (options?.NX === true)
        return px === undefined ? redis.set(key, value, 'NX') : redis.set(key, value, 'PX', px, 'NX')
      return px === undefined ? redis.set(key, value) : redis.set(key, value, 'PX', px)
    },
    del: (key) => redis.del(key),
    eval: (script, { keys, arguments: argv }) => redis.eval(script, keys.length, ...keys, ...argv),
    async *scanIterator({ MATCH, COUNT }) {
      let cursor = '0'
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', MATCH ?? '*', 'COUNT', COUNT ?? 100)
        cursor = next
        if (keys.length > 0) yield keys
      } while (cursor !== '0')
    },
  }
  return { storage: new RedisChannelStorage({ client, keyPrefix }), close: () => redis.disconnect() }
}
