import { CHAIN_UPSTREAM } from '../chain/multiRead.js'
import { UpstreamError } from '../errors.js'

/**
 * A plan read the bundle cannot be built without: a call that reverted in the multicall (undefined) is a
 * 502 naming it, never a made-up zero.
 */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new UpstreamError(CHAIN_UPSTREAM, `${what} could not be read from the chain`)
  return value
}
