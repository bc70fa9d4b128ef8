import type { Database } from './database.js'

/** UTIL one sender sent one recipient over a range of blocks. */
export interface UtilSend {
  sender: `0x${string}`
  recipient: `0x${string}`
  value: bigint
}

/**
 * The stored side of the desk's UTIL send index (migration 007): a cursor (the next block to read) and the
 * totals read so far, per sender and recipient, under one index name.
 */
export interface UtilSendBook {
  /** The next block the index reads; `fromBlock` when the index is new (it is created then). */
  nextBlock(name: string, fromBlock: bigint): Promise<bigint>
  /**
   * Adds the sends of blocks `from` … `to` and moves the cursor to `to + 1`, in one transaction, only if
   * the cursor is still at `from` (another instance may have read the range first): false when it was not.
   */
  advance(name: string, from: bigint, to: bigint, sends: readonly UtilSend[]): Promise<boolean>
  /**
   * The cursor and what `sender` sent each recipient below it (lowercase addresses), read in one statement:
   * an advance committing meanwhile is either wholly in both or in neither.
   */
  sentBy(
    name: string,
    sender: `0x${string}`,
  ): Promise<{ nextBlock: bigint; sent: Map<string, bigint> } | undefined>
}

export function createUtilSendBook(db: Database): UtilSendBook {
  return {
    async nextBlock(name, fromBlock) {
      await db.query(
        'INSERT INTO log_index_cursors (name, next_block) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
        [name, fromBlock.toString()],
      )
      const { rows } = await db.query<{ next_block: string }>(
        'SELECT next_block FROM log_index_cursors WHERE name = $1',
        [name],
      )
      return BigInt(rows[0]?.next_block ?? fromBlock)
    },
    advance: (name, from, to, sends) =>
      db.transaction(async (tx) => {
        const { rows } = await tx.query<{ next_block: string }>(
          'SELECT next_block FROM log_index_cursors WHERE name = $1 FOR UPDATE',
          [name],
        )
        if (rows[0] === undefined || BigInt(rows[0].next_block) !== from) return false
        for (const send of sends) {
          await tx.query(
            `INSERT INTO util_sends (index_name, sender, recipient, total) VALUES ($1, $2, $3, $4)
             ON CONFLICT (index_name, sender, recipient) DO UPDATE SET total = util_sends.total + EXCLUDED.total`,
            [name, send.sender.toLowerCase(), send.recipient.toLowerCase(), send.value.toString()],
          )
        }
        await tx.query('UPDATE log_index_cursors SET next_block = $2, updated_at = now() WHERE name = $1', [
          name,
          (to + 1n).toString(),
        ])
        return true
      }),
    async sentBy(name, sender) {
      const { rows } = await db.query<{ next_block: string; recipient: string | null; total: string | null }>(
        `SELECT c.next_block, s.recipient, s.total::text AS total
           FROM log_index_cursors c
           LEFT JOIN util_sends s ON s.index_name = c.name AND s.sender = $2
          WHERE c.name = $1`,
        [name, sender.toLowerCase()],
      )
      const [first] = rows
      if (first === undefined) return undefined
      const sent = new Map<string, bigint>()
      for (const r of rows)
        if (r.recipient !== null && r.total !== null) sent.set(r.recipient, BigInt(r.total))
      return { nextBlock: BigInt(first.next_block), sent }
    },
  }
}
