import { type Address, type PublicClient, parseAbiItem } from 'viem'
import type { UtilSend, UtilSendBook } from '../store/utilSendBook.js'

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

/**
 * Blocks at the head left out of the stored totals (read live on each query instead): a reorg of the head
 * then changes nothing stored. 64 blocks are 12.8 s on Base.
 */
const HEAD_BLOCKS = 64n

/** Windows a query may catch up on itself before it answers; further behind, it is refused meanwhile. */
const CATCH_UP_WINDOWS = 20n

export interface UtilSendIndexOptions {
  chain: PublicClient
  book: UtilSendBook
  util: Address
  /** The recipients followed: the desk's, and the dead address (burns). */
  recipients: readonly Address[]
  /** The first block worth reading (the token's deployment: PROP_LOGS_FROM_BLOCK). */
  fromBlock: bigint
  /** The widest block range of one `eth_getLogs` (RPC_LOGS_MAX_BLOCKS). */
  maxBlocks: number
}

/** The index is further behind the chain than a query catches up on: it is catching up meanwhile. */
export class IndexBehindError extends Error {
  override readonly name = 'IndexBehindError'
  constructor(readonly blocksBehind: bigint) {
    super(`the UTIL transfer index is ${blocksBehind} blocks behind the chain`)
  }
}

export type UtilSendIndex = ReturnType<typeof createUtilSendIndex>

/**
 * What each member sent the desk and burned, over the token's lifetime, without rescanning it (issue 38:
 * Base makes 432,000 blocks a day). The token's `Transfer` events to the followed recipients are read once,
 * a window of at most `maxBlocks` blocks at a time, and their totals per sender kept in the store with the
 * next block to read (both in one transaction: a restart or another instance never counts a block twice).
 * The stored totals stop `HEAD_BLOCKS` short of the head; a query adds the member's own transfers since the
 * cursor, read live (one request within the bound). The reconcile rounds advance the index; a query that
 * finds it more than a window behind advances it first, and far behind (a first start on Base) is refused.
 */
export function createUtilSendIndex(o: UtilSendIndexOptions) {
  const name = `util-sends:${o.util.toLowerCase()}:${[...o.recipients]
    .map((r) => r.toLowerCase())
    .sort()
    .join(',')}`
  const window = BigInt(o.maxBlocks)
  const headBlocks = HEAD_BLOCKS < window ? HEAD_BLOCKS : window - 1n
  const transfers = (args: { from?: Address }, fromBlock: bigint, toBlock: bigint) =>
    o.chain.getLogs({
      address: o.util,
      event: TRANSFER,
      args: { ...args, to: [...o.recipients] },
      fromBlock,
      toBlock,
    })

  let advancing: Promise<void> | undefined
  // The highest block any caller asked the stored totals to reach: a run under way takes a later goal on.
  let goal = -1n
  /** Reads windows until the stored totals reach `target`; one run at a time in this process. */
  const advanceTo = (target: bigint): Promise<void> => {
    if (target > goal) goal = target
    advancing ??= (async () => {
      let next = await o.book.nextBlock(name, o.fromBlock)
      while (next <= goal) {
        const end = next + window - 1n < goal ? next + window - 1n : goal
        const totals = new Map<string, UtilSend>()
        for (const log of await transfers({}, next, end)) {
          const { from, to, value } = log.args
          if (from === undefined || to === undefined || value === undefined) continue
          const key = `${from}:${to}`.toLowerCase()
          const seen = totals.get(key)
          totals.set(key, { sender: from, recipient: to, value: (seen?.value ?? 0n) + value })
        }
        // Another instance read this window first: go on from where it left the cursor.
        const moved = await o.book.advance(name, next, end, [...totals.values()])
        next = moved ? end + 1n : await o.book.nextBlock(name, o.fromBlock)
      }
    })().finally(() => {
      advancing = undefined
    })
    return advancing
  }

  return {
    /** Moves the stored totals up to `HEAD_BLOCKS` short of the head (the reconcile rounds call it). */
    async advance(): Promise<void> {
      const head = await o.chain.getBlockNumber({ cacheTime: 0 })
      await advanceTo(head - headBlocks)
    },

    /** What `member` sent each followed recipient (lowercase addresses), up to the head. */
    async sentBy(member: Address): Promise<Map<string, bigint>> {
      const head = await o.chain.getBlockNumber({ cacheTime: 0 })
      let next = await o.book.nextBlock(name, o.fromBlock)
      for (let round = 0; head - next + 1n > window; round++) {
        if (head - next > window * CATCH_UP_WINDOWS || round > 2) {
          advanceTo(head - headBlocks).catch(() => undefined)
          throw new IndexBehindError(head - next + 1n)
        }
        await advanceTo(head - headBlocks)
        next = await o.book.nextBlock(name, o.fromBlock)
      }
      // The cursor and the totals below it at one instant (an advance may commit after the check above).
      const stored = await o.book.sentBy(name, member)
      const sent = stored?.sent ?? new Map<string, bigint>()
      next = stored?.nextBlock ?? next
      if (next <= head) {
        for (const log of await transfers({ from: member }, next, head)) {
          const to = log.args.to?.toLowerCase()
          if (to === undefined || log.args.value === undefined) continue
          sent.set(to, (sent.get(to) ?? 0n) + log.args.value)
        }
      }
      return sent
    },
  }
}
