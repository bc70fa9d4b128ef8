import type { PublicClient } from 'viem'

/** Code at an address changes rarely (a deployment, an EIP-7702 delegation): a minute is fresh enough. */
const CODE_TTL_MS = 60_000
const MAX_ENTRIES = 10_000

/**
 * Whether an address holds code, asked only when a payment's signature does not recover to its `from`
 * (a smart wallet's may still be valid). Cached so that a flood of such payments naming one address
 * costs one `eth_getCode`, and concurrent asks share it.
 */
export function createCodeCache(
  chain: PublicClient,
  now: () => number,
): (address: `0x${string}`) => Promise<boolean> {
  const cache = new Map<string, { at: number; hasCode: Promise<boolean> }>()
  return (address) => {
    const key = address.toLowerCase()
    const hit = cache.get(key)
    if (hit !== undefined && now() - hit.at < CODE_TTL_MS) return hit.hasCode
    if (cache.size >= MAX_ENTRIES) cache.clear()
    const hasCode = chain.getCode({ address }).then((code) => (code ?? '0x') !== '0x')
    // A failed lookup is not cached.
    hasCode.catch(() => cache.delete(key))
    cache.set(key, { at: now(), hasCode })
    return hasCode
  }
}
