import type { Channel, ChannelStorage, ChannelUpdateResult } from '@x402/evm/batch-settlement/server'
import type { Database } from './database.js'

/**
 * x402's batch-settlement `ChannelStorage` (the server's view of each payment channel: what has been charged,
 * the latest voucher, a request in flight) in the ledger's database, PGlite or PostgreSQL. `updateChannel`
 * runs its callback inside one transaction holding the channel's row lock (SELECT … FOR UPDATE), so two
 * instances sharing PostgreSQL never interleave on one channel: a voucher is counted once. The row is created
 * (empty) before it is locked, so the first use of a channel is serialized too.
 */
export function createSqlChannelStorage(db: Database): ChannelStorage {
  const key = (channelId: string) => channelId.toLowerCase()
  return {
    async get(channelId) {
      const { rows } = await db.query<{ record: Channel | null }>(
        'SELECT record FROM batch_channels WHERE channel_id = $1',
        [key(channelId)],
      )
      return rows[0]?.record ?? undefined
    },
    async list() {
      const { rows } = await db.query<{ record: Channel }>(
        'SELECT record FROM batch_channels WHERE record IS NOT NULL ORDER BY channel_id',
      )
      return rows.map((r) => r.record)
    },
    updateChannel(channelId, update): Promise<ChannelUpdateResult> {
      const id = key(channelId)
      return db.transaction(async (tx) => {
        await tx.query(
          'INSERT INTO batch_channels (channel_id) VALUES ($1) ON CONFLICT (channel_id) DO NOTHING',
          [id],
        )
        const { rows } = await tx.query<{ record: Channel | null }>(
          'SELECT record FROM batch_channels WHERE channel_id = $1 FOR UPDATE',
          [id],
        )
        const current = rows[0]?.record ?? undefined
        const next = update(current)
        if (next === current) return { channel: current, status: 'unchanged' }
        if (next === undefined) {
          await tx.query(
            'UPDATE batch_channels SET record = NULL, updated_at = now() WHERE channel_id = $1',
            [id],
          )
          return { channel: undefined, status: current === undefined ? 'unchanged' : 'deleted' }
        }
        await tx.query('UPDATE batch_channels SET record = $2, updated_at = now() WHERE channel_id = $1', [
          id,
          JSON.stringify(next),
        ])
        return { channel: next, status: 'updated' }
      })
    },
  }
}
