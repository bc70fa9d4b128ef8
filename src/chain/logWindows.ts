import type { Transport } from 'viem'

/** Windows of one wide `eth_getLogs` sent at once (each its own request, in one JSON-RPC batch at most). */
const WINDOWS_AT_ONCE = 4
/**
 * The most windows one query is split into (50,000 blocks at the default 2,000: 2.8 hours of Base). A query
 * wider than that fails before sending anything, as a provider's range cap would: a scan of the chain's
 * whole history would otherwise cost tens of thousands of requests (and one caller could make it).
 */
export const MAX_LOG_WINDOWS = 25

/** A log query wider than `MAX_LOG_WINDOWS` windows: refused here, nothing sent. */
export class LogRangeTooWideError extends Error {
  override readonly name = 'LogRangeTooWideError'
}

type Filter = { fromBlock?: unknown; toBlock?: unknown; blockHash?: unknown; [key: string]: unknown }
type Request = (args: { method: string; params?: unknown }, opts?: unknown) => Promise<unknown>

/**
 * `eth_getLogs` within `maxBlocks` blocks a request, whoever asks (issue 38): RPC providers cap the block
 * range of a log query (commonly 2,000 to 10,000 blocks) and Base makes 432,000 blocks a day. A query wider
 * than that is sent as consecutive windows of at most `maxBlocks` blocks, their logs joined in block order;
 * a block tag (`latest`, `safe`, …) is first resolved to its number, so each window names its blocks. A
 * query by block hash, or within the bound, goes out as it was asked. This bounds every request, and a
 * query of more than `MAX_LOG_WINDOWS` windows is refused: a long history is the caller's to index (the
 * desk's transfer index reads only the blocks it has not read yet).
 */
export function inLogWindows(transport: Transport, maxBlocks: number): Transport {
  return (params) => {
    const built = transport(params)
    const send = built.request as unknown as Request
    const blockOf = async (tag: unknown): Promise<bigint> => {
      if (tag === undefined || tag === 'latest' || tag === 'pending')
        return BigInt((await send({ method: 'eth_blockNumber' })) as string)
      if (tag === 'earliest') return 0n
      if (typeof tag === 'string' && tag.startsWith('0x')) return BigInt(tag)
      const block = (await send({ method: 'eth_getBlockByNumber', params: [tag, false] })) as {
        number: string
      }
      return BigInt(block.number)
    }
    const request: Request = async (args, opts) => {
      const filter = (args.params as Filter[] | undefined)?.[0]
      if (args.method !== 'eth_getLogs' || filter === undefined || filter.blockHash !== undefined)
        return send(args, opts)
      const numeric = (b: unknown) => typeof b === 'string' && b.startsWith('0x')
      if (numeric(filter.fromBlock) && numeric(filter.toBlock)) {
        const span = BigInt(filter.toBlock as string) - BigInt(filter.fromBlock as string) + 1n
        if (span <= BigInt(maxBlocks)) return send(args, opts)
      }
      const [from, to] = await Promise.all([blockOf(filter.fromBlock), blockOf(filter.toBlock)])
      if (to - from + 1n > BigInt(maxBlocks * MAX_LOG_WINDOWS)) {
        throw new LogRangeTooWideError(
          `eth_getLogs over ${to - from + 1n} blocks: more than ${MAX_LOG_WINDOWS} windows of ${maxBlocks} (RPC_LOGS_MAX_BLOCKS)`,
        )
      }
      const windows: [bigint, bigint][] = []
      for (let start = from; start <= to; start += BigInt(maxBlocks)) {
        const end = start + BigInt(maxBlocks) - 1n
        windows.push([start, end < to ? end : to])
      }
      const logs: unknown[][] = []
      for (let i = 0; i < windows.length; i += WINDOWS_AT_ONCE) {
        const part = await Promise.all(
          windows.slice(i, i + WINDOWS_AT_ONCE).map(
            ([a, b]) =>
              send(
                {
                  method: 'eth_getLogs',
                  params: [{ ...filter, fromBlock: `0x${a.toString(16)}`, toBlock: `0x${b.toString(16)}` }],
                },
                opts,
              ) as Promise<unknown[]>,
          ),
        )
        logs.push(...part)
      }
      return logs.flat()
    }
    return { ...built, request: request as unknown as typeof built.request }
  }
}
