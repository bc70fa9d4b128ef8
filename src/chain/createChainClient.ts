import { createPublicClient, defineChain, http, type PublicClient } from 'viem'
import { base } from 'viem/chains'
import { checkedBatchFetch } from './checkedBatchFetch.js'
import { CHAIN_ID } from './network.js'

/**
 * The service's one read client. The chain is Base (id 8453) at the configured RPC URL, so the
 * same code reads Base mainnet or the devnet. Concurrent calls at one block tag are batched into Multicall3,
 * and whatever else is sent in the same tick into JSON-RPC batches of at most `batchSize` (0: no batch).
 */
export function createChainClient(rpcUrl: string, batchSize: number): PublicClient {
  // Base's id, currency and Multicall3, without the OP-stack formatters (plain receipts read the same).
  const chain = defineChain({
    id: CHAIN_ID,
    name: base.name,
    nativeCurrency: base.nativeCurrency,
    rpcUrls: { default: { http: [rpcUrl] } },
    contracts: { multicall3: base.contracts.multicall3 },
  })
  return createPublicClient({
    chain,
    // Requests sent in the same tick go out as one JSON-RPC batch (one HTTP round trip): a read's
    // parallel sections (multicalls pinned to one block, log queries) cost one wait, not one each.
    transport: http(rpcUrl, {
      timeout: 10_000,
      retryCount: 1,
      batch: batchSize > 0 ? { batchSize, wait: 0 } : false,
      fetchFn: checkedBatchFetch,
    }),
    batch: { multicall: { wait: 0 } },
    // viem's default polling for a 2 s chain is 1 s; receipts on a fast devnet want less.
    pollingInterval: 250,
  })
}

export class WrongChainError extends Error {
  override readonly name = 'WrongChainError'
  constructor(readonly chainId: number) {
    super(`RPC answers chain id ${chainId}; this service runs on chain ${CHAIN_ID} (Base).`)
  }
}

/** Resolves once the RPC answers with Base's chain id; retries until `timeoutMs`. */
export async function waitForChain(client: PublicClient, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const id = await client.getChainId()
      if (id !== CHAIN_ID) throw new WrongChainError(id)
      return
    } catch (err) {
      if (err instanceof WrongChainError || Date.now() > deadline) throw err
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}
