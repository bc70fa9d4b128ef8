import { checksumAddress } from 'viem'
import { z } from 'zod'

const ADDRESS = /^0x[a-fA-F0-9]{40}$/

/** True unless `s` is a well-formed address whose mixed case contradicts its EIP-55 checksum. */
export function checksumHolds(s: string): boolean {
  if (!ADDRESS.test(s)) return true // the pattern reports it
  const hex = s.slice(2)
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true
  return checksumAddress(s as `0x${string}`) === s
}

/**
 * The one schema of an EVM address a caller sends (a route's field, the payment's `?ref=`): 0x + 40 hex,
 * and a mixed-case address must carry a valid EIP-55 checksum (all-lowercase and all-uppercase hex carry
 * none and are accepted).
 */
export const address = z
  .string()
  .regex(ADDRESS, { error: 'must be a 0x-prefixed 20-byte hex address (0x + 40 hex).' })
  .refine(checksumHolds, {
    error:
      'mixes upper and lower case but fails its EIP-55 checksum: check the address for a typo, or send it all lowercase.',
  })
  .describe('EVM address, 0x + 40 hex; mixed case must be a valid EIP-55 checksum')
