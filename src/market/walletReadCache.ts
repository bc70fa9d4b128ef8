import type { PublicClient } from 'viem'
import { cachePerClient } from '../chain/cachePerClient.js'

/** How long a wallet answer may be reused, at most: one Base block. */
export const WALLET_CACHE_MS = 2_000

/**
 * The answer cache of the wallet reads: an answer is reused for the same key only while the chain's head
 * is the block it was read at, and for at most WALLET_CACHE_MS. So a wallet that just had a transaction
 * included is never shown its state from before (the head moved), and an agent polling within a block
 * costs one `eth_blockNumber` instead of a full read. The load is given that head, so every section of an
 * answer reads the same block and no read waits for another to learn it. Concurrent identical reads share
 * one load; failures are not cached. When the head cannot be read, the load reads the latest block,
 * uncached (and fails there if the chain is down).
 */
export function walletReadCache<V>(): (
  chain: PublicClient,
  key: string,
  load: (head: bigint | undefined) => Promise<V>,
) => Promise<V> {
  const perClient = cachePerClient<V>(WALLET_CACHE_MS)
  return async (chain, key, load) => {
    let head: bigint
    try {
      head = await chain.getBlockNumber({ cacheTime: 0 })
    } catch {
      return load(undefined)
    }
    return perClient(chain).get(`${head}:${key}`, () => load(head))
  }
}
