import {
  createPublicClient,
  defineChain,
  HttpRequestError,
  http,
  type PublicClient,
  TimeoutError,
  type Transport,
} from 'viem'
import { base } from 'viem/chains'
import type { CircuitBreaker } from '../circuitBreaker.js'
import { UpstreamError } from '../errors.js'
import { checkedBatchFetch } from './checkedBatchFetch.js'
import { inLogWindows } from './logWindows.js'
import { CHAIN_ID } from './network.js'

/**
 * The service's one read client. The chain is Base (id 8453) at the configured RPC URL, so the
 * same code reads Base mainnet or the devnet. Concurrent calls at one block tag are batched into Multicall3,
 * and whatever else is sent in the same tick into JSON-RPC batches of at most `batchSize` (0: no batch).
 */
export interface ChainClientOptions {
  /** The most one JSON-RPC request (one HTTP round trip) may take; viem retries it once (default 10 s). */
  timeoutMs?: number
  /**
   * The RPC's circuit breaker: after its threshold of requests in a row the RPC did not answer (a timeout,
   * a reset, a 5xx, an unreadable or incomplete answer), reads fail fast until its cool-down ends.
   */
  breaker?: CircuitBreaker
  /** The widest `eth_getLogs` block range one request may ask (RPC_LOGS_MAX_BLOCKS; see logWindows). */
  logsMaxBlocks?: number
}

/** Within what Base's public RPC providers allow a log query (2,000 blocks: 400 s at 200 ms). */
export const DEFAULT_LOGS_MAX_BLOCKS = 2_000

export function createChainClient(
  rpcUrl: string,
  batchSize: number,
  options: ChainClientOptions = {},
): PublicClient {
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
    transport: inLogWindows(
      throughBreaker(
        http(rpcUrl, {
          timeout: options.timeoutMs ?? 10_000,
          retryCount: 1,
          batch: batchSize > 0 ? { batchSize, wait: 0 } : false,
          fetchFn: checkedBatchFetch,
        }),
        options.breaker,
      ),
      options.logsMaxBlocks ?? DEFAULT_LOGS_MAX_BLOCKS,
    ),
    batch: { multicall: { wait: 0 } },
    // viem's default polling for a 2 s chain is 1 s; receipts on a fast devnet want less.
    pollingInterval: 250,
  })
}

/**
 * The transport's requests (each after viem's own retry) through the RPC's breaker. What counts as the RPC
 * down is a transport fault: no answer in time, a reset, a 5xx without a JSON-RPC error, a body that is
 * not JSON-RPC. A JSON-RPC error (a revert, an unknown block) is the node answering: it keeps the circuit
 * closed, or a caller could pause the chain for everyone by asking for something that reverts.
 */
function throughBreaker(transport: Transport, breaker: CircuitBreaker | undefined): Transport {
  if (breaker === undefined) return transport
  return (params) => {
    const built = transport(params)
    const request = ((
      args: Parameters<typeof built.request>[0],
      opts?: Parameters<typeof built.request>[1],
    ) =>
      breaker
        .run(() => built.request(args, opts), isTransportFault)
        .catch((err: unknown) => {
          // The open circuit's refusal, dressed as the transport fault it stands for: viem's error
          // decoders read a transport error's fields, and callers map it like any RPC outage; its cause
          // keeps the cool-down's Retry-After (errors.ts, retryAfterOfCause).
          if (err instanceof UpstreamError)
            throw new HttpRequestError({ url: built.value?.url ?? '', details: err.message, cause: err })
          throw err
        })) as typeof built.request
    return { ...built, request }
  }
}

function isTransportFault(err: unknown): boolean {
  return err instanceof HttpRequestError || err instanceof TimeoutError
}

/**
 * Whether the RPC answers `eth_blockNumber` within `timeoutMs`: the breaker's check before it opens, so
 * that reads failing for their own weight (or a caller's crafted ones) do not pause the chain for all.
 */
export function rpcAnswers(rpcUrl: string, timeoutMs: number): () => Promise<boolean> {
  return async () => {
    try {
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
        signal: AbortSignal.timeout(timeoutMs),
      })
      const body = (await res.json()) as { result?: unknown }
      return res.ok && typeof body.result === 'string'
    } catch {
      return false
    }
  }
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
