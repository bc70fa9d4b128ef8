import { BaseError, HttpRequestError, RpcRequestError, TimeoutError } from 'viem'
import { UpstreamError } from '../errors.js'

/**
 * `multicall({ allowFailure: true })` never throws: when the RPC itself fails (down, timing out,
 * rate-limiting) viem marks every call of the batch failed, which reads like contracts that said no
 * (unminted, unknown market) and would be served, and charged, as such. A failure caused by the transport
 * is the chain upstream's 502 with Retry-After instead; contract reverts and empty returns stay per call.
 */
export function throwOnRpcFault(
  results: readonly { status: 'success' | 'failure'; error?: unknown }[],
  upstream = 'Base RPC',
): void {
  for (const r of results) {
    if (r.status === 'failure' && isTransportFault(r.error)) {
      throw new UpstreamError(upstream, 'the RPC did not answer the multicall', { cause: r.error })
    }
  }
}

function isTransportFault(err: unknown): boolean {
  const transport = (e: unknown) =>
    e instanceof HttpRequestError || e instanceof TimeoutError || e instanceof RpcRequestError
  if (transport(err)) return true
  return err instanceof BaseError && err.walk(transport) !== null
}
