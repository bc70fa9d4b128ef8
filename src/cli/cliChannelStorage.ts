import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type {
  BatchSettlementClientContext as ChannelContext,
  ClientChannelStorage,
} from '@x402/evm/batch-settlement/client'

/**
 * The CLI's batch-settlement channels, one JSON file per wallet (`<AGENTDESK_HOME>/channels-<address>.json`),
 * so a channel opened by `deposit` pays the next sessions' calls and `refund` finds it. Loaded once and read
 * synchronously (`peek`): x402's payment policies, which pick the rail, are synchronous. Written whole to a
 * temporary file and renamed, so a crash mid-write leaves the previous state, never half a file.
 */
export class CliChannelStorage implements ClientChannelStorage {
  private readonly channels: Map<string, ChannelContext>

  constructor(private readonly file: string) {
    this.channels = new Map(Object.entries(CliChannelStorage.load(file)))
  }

  private static load(file: string): Record<string, ChannelContext> {
    try {
      // The file decides how much of a deposit the next voucher signs away: another user able to write
      // it could make the CLI sign a voucher for the whole deposit. Only a private file is trusted.
      const { uid, mode } = statSync(file)
      if (uid !== process.getuid?.() || (mode & 0o077) !== 0)
        throw new Error('it must belong to you and be readable and writable by you only (chmod 600)')
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, ChannelContext>
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {}
      throw new Error(`${file} is not a channel file: ${(err as Error).message}`)
    }
  }

  /** The channel's last known state, without waiting. */
  peek(key: string): ChannelContext | undefined {
    return this.channels.get(key.toLowerCase())
  }

  /** Every channel this wallet has open, by id. */
  all(): IterableIterator<[string, ChannelContext]> {
    return this.channels.entries()
  }

  async get(key: string) {
    return this.peek(key)
  }

  async set(key: string, context: ChannelContext) {
    this.channels.set(key.toLowerCase(), context)
    this.save()
  }

  async delete(key: string) {
    this.channels.delete(key.toLowerCase())
    this.save()
  }

  private save() {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 })
    const temporary = `${this.file}.${process.pid}.tmp`
    writeFileSync(temporary, JSON.stringify(Object.fromEntries(this.channels), null, 2), { mode: 0o600 })
    renameSync(temporary, this.file)
  }
}
