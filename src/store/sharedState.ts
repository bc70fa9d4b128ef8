import { Redis } from 'ioredis'
import { StoreUnavailableError } from '../errors.js'

/**
 * Short-lived state that instances behind one load balancer must agree on: in-flight claims on payment
 * authorizations, rate-limit counters and the answers kept for retries (payment identifiers). In memory
 * by default; in Redis when REDIS_URL is set.
 */
export interface SharedState {
  readonly kind: 'memory' | 'redis'
  /** Atomically takes `key` for `ttlMs`; false when someone holds it already. */
  claim(key: string, ttlMs: number): Promise<boolean>
  /** Drops `key` (a claim, or a value `put` or `putIfAbsent` stored). */
  release(key: string): Promise<void>
  /** Atomically stores `value` under `key` for `ttlMs` unless `key` holds a value: then that value, unchanged. */
  putIfAbsent(key: string, value: string, ttlMs: number): Promise<string | undefined>
  /** Stores `value` under `key` for `ttlMs`, replacing what it held. */
  put(key: string, value: string, ttlMs: number): Promise<void>
  /** The value stored under `key` (undefined when none, or expired). */
  get(key: string): Promise<string | undefined>
  /** Counts one hit in the fixed window `windowMs` that `key` names; returns the count and ms until reset. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>
  /** The current count of a `hit` window (0 when none), without counting. */
  count(key: string): Promise<number>
  /**
   * One wallet's funds book: payments in flight, reserved against a recent balance read, so that
   * concurrent payments (on any instance) never together exceed what the wallet holds. The rules are
   * `decideReservation`'s; payments/exact/fundsGuard.ts is the only user.
   */
  funds: FundsBook
  close(): Promise<void>
}

export interface FundsBook {
  /** Reserves `amount` for entry `id` of `owner`'s book, if the book's balance covers it with the rest. */
  reserve(owner: string, id: string, amount: bigint, ttlMs: number): Promise<Reservation>
  /** Stores a balance read that started at `readAtMs`; it is trusted for `ttlMs` from then. */
  recordBalance(owner: string, amount: bigint, readAtMs: number, ttlMs: number): Promise<void>
  /** The entry's payment settled now: it stays counted against balances read before it could show. */
  settle(owner: string, id: string, lingerMs: number): Promise<void>
  release(owner: string, id: string): Promise<void>
}

export type ReserveVerdict = 'reserved' | 'insufficient' | 'unknown_balance'

export interface Reservation {
  verdict: ReserveVerdict
  /** When the balance it was judged against was read (0 when there was none). */
  balanceReadAtMs: number
}

/**
 * A balance read that started less than this long after a settlement may not show it yet (RPC nodes
 * behind the head, a block being built): such a settled entry still counts against that read.
 */
export const SETTLEMENT_VISIBILITY_LAG_MS = 2_000
/** Balances are kept as doubles in Redis' Lua: above this, a wallet holds more than any in-flight total. */
const BALANCE_CAP = BigInt(Number.MAX_SAFE_INTEGER)

interface BookEntry {
  amount: number
  expiresAt: number
  /** 0 while in flight. */
  settledAt: number
}

/**
 * The reservation rule, shared by the memory book and mirrored line for line by RESERVE_SCRIPT: an entry
 * counts against the balance unless it settled early enough for the balance read to show it.
 */
export function decideReservation(
  balance: { amount: number; readAtMs: number } | undefined,
  entries: Iterable<BookEntry>,
  amount: number,
  nowMs: number,
): ReserveVerdict {
  if (balance === undefined) return 'unknown_balance'
  let total = 0
  for (const e of entries) {
    if (e.expiresAt <= nowMs) continue
    if (e.settledAt === 0 || e.settledAt + SETTLEMENT_VISIBILITY_LAG_MS >= balance.readAtMs) total += e.amount
  }
  return total + amount > balance.amount ? 'insufficient' : 'reserved'
}

const capped = (amount: bigint): number => Number(amount > BALANCE_CAP ? BALANCE_CAP : amount)

export function createSharedState(redisUrl: string | undefined, now: () => number = Date.now): SharedState {
  return redisUrl === undefined ? createMemoryState(now) : createRedisState(redisUrl, now)
}

export function createMemoryState(now: () => number = Date.now): SharedState {
  const entries = new Map<string, { count: number; expiresAt: number }>()
  const values = new Map<string, { value: string; expiresAt: number }>()
  const books = new Map<
    string,
    { balance?: { amount: number; readAtMs: number; expiresAt: number }; entries: Map<string, BookEntry> }
  >()
  const book = (owner: string) => {
    let b = books.get(owner)
    if (b === undefined) {
      b = { entries: new Map() }
      books.set(owner, b)
    }
    return b
  }
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
    for (const [key, entry] of values) if (entry.expiresAt <= t) values.delete(key)
    for (const [owner, b] of books) {
      for (const [id, e] of b.entries) if (e.expiresAt <= t) b.entries.delete(id)
      if (b.entries.size === 0 && (b.balance?.expiresAt ?? 0) <= t) books.delete(owner)
    }
  }
  const liveValue = (key: string) => {
    const entry = values.get(key)
    if (entry !== undefined && entry.expiresAt <= now()) {
      values.delete(key)
      return undefined
    }
    return entry?.value
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
      values.delete(key)
    },
    async putIfAbsent(key, value, ttlMs) {
      const held = liveValue(key)
      if (held !== undefined) return held
      sweep()
      values.set(key, { value, expiresAt: now() + ttlMs })
      return undefined
    },
    async put(key, value, ttlMs) {
      sweep()
      values.set(key, { value, expiresAt: now() + ttlMs })
    },
    async get(key) {
      return liveValue(key)
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
    async count(key) {
      return live(key)?.count ?? 0
    },
    funds: {
      async reserve(owner, id, amount, ttlMs) {
        const b = book(owner)
        const t = now()
        const balance = b.balance !== undefined && b.balance.expiresAt > t ? b.balance : undefined
        const verdict = decideReservation(balance, b.entries.values(), capped(amount), t)
        if (verdict === 'reserved') {
          sweep()
          b.entries.set(id, { amount: capped(amount), expiresAt: t + ttlMs, settledAt: 0 })
        }
        return { verdict, balanceReadAtMs: balance?.readAtMs ?? 0 }
      },
      async recordBalance(owner, amount, readAtMs, ttlMs) {
        book(owner).balance = { amount: capped(amount), readAtMs, expiresAt: readAtMs + ttlMs }
      },
      async settle(owner, id, lingerMs) {
        const e = books.get(owner)?.entries.get(id)
        if (e === undefined) return
        e.settledAt = now()
        e.expiresAt = e.settledAt + lingerMs
      },
      async release(owner, id) {
        books.get(owner)?.entries.delete(id)
      },
    },
    async close() {
      entries.clear()
      values.clear()
      books.clear()
    },
  }
}

// INCR and the first PEXPIRE in one round trip, so a window can never be left without an expiry.
const HIT_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {c, redis.call('PTTL', KEYS[1])}
`

// decideReservation in Lua, plus the write, in one atomic step. KEYS: the book (a hash id → amount:expiresAt:settledAt)
// and its balance (amount:readAt). ARGV: id, amount, expiresAt, now, lag. Expired entries are dropped.
const RESERVE_SCRIPT = `
local bal = redis.call('GET', KEYS[2])
if not bal then return {'unknown_balance', 0} end
local balance, readAt = string.match(bal, '^(%d+):(%d+)$')
balance = tonumber(balance)
readAt = tonumber(readAt)
local now = tonumber(ARGV[4])
local lag = tonumber(ARGV[5])
local total = 0
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local a, e, s = string.match(fields[i + 1], '^(%d+):(%d+):(%d+)$')
  a = tonumber(a)
  e = tonumber(e)
  s = tonumber(s)
  if e <= now then
    redis.call('HDEL', KEYS[1], fields[i])
  elseif s == 0 or s + lag >= readAt then
    total = total + a
  end
end
if total + tonumber(ARGV[2]) > balance then return {'insufficient', readAt} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ':' .. ARGV[3] .. ':0')
local want = tonumber(ARGV[3]) - now
if redis.call('PTTL', KEYS[1]) < want then redis.call('PEXPIRE', KEYS[1], want) end
return {'reserved', readAt}
`

// Marks an entry settled now and shortens its life to the linger. KEYS: the book. ARGV: id, now, linger.
const SETTLE_SCRIPT = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then return 0 end
local a = string.match(v, '^(%d+):')
local expiresAt = tonumber(ARGV[2]) + tonumber(ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], a .. ':' .. expiresAt .. ':' .. ARGV[2])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
`

export function createRedisState(url: string, now: () => number = Date.now): SharedState {
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
    async putIfAbsent(key, value, ttlMs) {
      // SET NX GET (Redis 7): the value written, or the one already there, in one atomic step.
      const held = await guard(
        redis.set(prefix + key, value, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX', 'GET'),
      )
      return held ?? undefined
    },
    async put(key, value, ttlMs) {
      await guard(redis.set(prefix + key, value, 'PX', Math.max(1, Math.ceil(ttlMs))))
    },
    async get(key) {
      return (await guard(redis.get(prefix + key))) ?? undefined
    },
    async hit(key, windowMs) {
      const reply = await guard(redis.eval(HIT_SCRIPT, 1, prefix + key, String(windowMs)))
      const [count, ttl] = reply as [number, number]
      return { count, resetMs: ttl < 0 ? windowMs : ttl }
    },
    async count(key) {
      return Number((await guard(redis.get(prefix + key))) ?? 0)
    },
    funds: {
      async reserve(owner, id, amount, ttlMs) {
        const t = now()
        const keys = [`${prefix}funds:${owner}`, `${prefix}funds:${owner}:balance`]
        const args = [
          id,
          String(capped(amount)),
          String(t + Math.ceil(ttlMs)),
          String(t),
          String(SETTLEMENT_VISIBILITY_LAG_MS),
        ]
        const [verdict, readAt] = (await guard(redis.eval(RESERVE_SCRIPT, 2, ...keys, ...args))) as [
          ReserveVerdict,
          number,
        ]
        return { verdict, balanceReadAtMs: Number(readAt) }
      },
      async recordBalance(owner, amount, readAtMs, ttlMs) {
        const left = Math.ceil(readAtMs + ttlMs - now())
        if (left <= 0) return
        await guard(
          redis.set(
            `${prefix}funds:${owner}:balance`,
            `${capped(amount)}:${Math.floor(readAtMs)}`,
            'PX',
            left,
          ),
        )
      },
      async settle(owner, id, lingerMs) {
        await guard(
          redis.eval(SETTLE_SCRIPT, 1, `${prefix}funds:${owner}`, id, String(now()), String(lingerMs)),
        )
      },
      async release(owner, id) {
        await guard(redis.hdel(`${prefix}funds:${owner}`, id))
      },
    },
    async close() {
      // QUIT is a command: with the server unreachable it waits in the offline queue, and a shutdown
      // would wait with it. Without a live connection there is nothing to flush: just drop the socket.
      if (redis.status !== 'ready') {
        redis.disconnect()
        return
      }
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}
