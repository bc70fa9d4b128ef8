import { type Address, checksumAddress, type Hex } from 'viem'
import { z } from 'zod'

/**
 * Field schemas of chain values (addresses, atomic amounts, ids, calldata, tickers), declared once for every
 * layer that validates or publishes them: the builders' bodies and actions, the reads' outputs, the route
 * table.
 * Each carries the spec's limit and a message that tells the caller what is allowed, so every 400 reads as
 * an instruction, and each parses to the type the code uses (`Address`, `Hex`, `bigint` for an amount that
 * moves tokens), so nothing downstream re-parses or casts.
 *
 * Input rules every route gets through these fields:
 * an address in mixed case must carry a valid EIP-55 checksum (all-lowercase and all-uppercase hex carry
 * none and are accepted); atomic amounts are canonical decimal (no leading zeros, at most 2^256 - 1), and
 * an amount that moves tokens must be positive (`positiveAtomicAmount`).
 */
const ADDRESS = /^0x[a-fA-F0-9]{40}$/

/** True unless `s` is a well-formed address whose mixed case contradicts its EIP-55 checksum. */
export function checksumHolds(s: string): boolean {
  if (!ADDRESS.test(s)) return true // the pattern reports it
  const hex = s.slice(2)
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true
  return checksumAddress(s as Address) === s
}

/**
 * An address as the caller sent it (case kept), typed `Address`: the checksum refinement is a type guard,
 * which types the output without changing the JSON Schema. A malformed address stops at the pattern (one
 * issue, the pattern's).
 */
export const address = z
  .string()
  .regex(ADDRESS, { error: 'must be a 0x-prefixed 20-byte hex address (0x + 40 hex).', abort: true })
  .refine((s): s is Address => ADDRESS.test(s) && checksumHolds(s), {
    error:
      'mixes upper and lower case but fails its EIP-55 checksum: check the address for a typo, or send it all lowercase.',
  })
  .describe('EVM address, 0x + 40 hex; mixed case must be a valid EIP-55 checksum')

/**
 * The wallet a builder builds for (owner, taker, signer): an address that can sign, so not the zero
 * address (the usual unset value). It holds tokens on Base (burns) and would simulate fine, so a careless
 * caller would be charged for steps nobody can send. (The burn builder refuses the dead address itself.)
 */
export const wallet = address
  .refine((s) => !/^0x0{40}$/.test(s), {
    error: 'is the zero address, which nobody can sign for: send the wallet that broadcasts the steps.',
  })
  .describe(
    'EVM address of the wallet that signs (not the zero address); mixed case must be a valid EIP-55 checksum',
  )

export const tokenOrNative = address.describe(
  'Token address (mixed case must be a valid EIP-55 checksum); native ETH is the sentinel 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
)

/** The type guard of the hex fields (their pattern has checked the digits). */
export const isHex = (s: string): s is Hex => s.startsWith('0x')

const MAX_UINT256 = 2n ** 256n - 1n
const fitsUint256 = (s: string) => !/^[0-9]{1,78}$/.test(s) || BigInt(s) <= MAX_UINT256

/** A canonical decimal uint256: digits, no leading zeros; "0" only when `zero` allows it. */
function canonicalUint(zero: boolean, error: string) {
  return z
    .string()
    .regex(zero ? /^(0|[1-9][0-9]*)$/ : /^[1-9][0-9]*$/, { error })
    .max(78, { error: 'must fit in 256 bits (at most 78 digits).' })
    .refine(fitsUint256, { error: 'must fit in 256 bits (at most 2^256 - 1).' })
}

/**
 * An atomic amount where zero is meaningful (balances, outputs, "0 collects fees only"), as published: its
 * digits. Outputs use it as is; a body field the code computes with takes `atomicAmountInput`.
 */
export const atomicAmount = canonicalUint(
  true,
  'must be a whole number in the token\'s smallest unit, as digits without leading zeros ("0" alone for zero).',
).describe("Atomic amount: digits in the token's smallest unit, no leading zeros")

/** `atomicAmount` in a body or query, parsed to the `bigint` it is (the same published schema). */
export const atomicAmountInput = atomicAmount.transform(BigInt)

/** An atomic amount that moves tokens (zero makes no sense there), parsed to `bigint`. Bodies and queries. */
export const positiveAtomicAmount = canonicalUint(
  false,
  'must be a positive integer in the token\'s smallest unit, without leading zeros (e.g. "1000000" for 1 USDC).',
)
  .transform(BigInt)
  .describe("Positive atomic amount: digits in the token's smallest unit, no leading zeros, not 0")

/**
 * A position NFT id (uint256) as published: its digits. Position managers start at 1, so 0 never names a
 * position. Bodies take `nftTokenId`.
 */
export const nftTokenIdDigits = canonicalUint(
  false,
  'must be a position NFT id: a positive integer without leading zeros.',
).describe('Position NFT token id: a positive integer, no leading zeros')

/** A position NFT id in a body, parsed to `bigint`. */
export const nftTokenId = nftTokenIdDigits.transform(BigInt)

export const marketId = z
  .string()
  .regex(/^0x[a-fA-F0-9]{64}$/, {
    error: 'must be a 0x-prefixed 32-byte hex market id (0x + 64 hex).',
    abort: true,
  })
  .refine(isHex)
  .describe('Market id, 0x + 64 hex')

export const txHash = z
  .string()
  .regex(/^0x[a-fA-F0-9]{64}$/, { error: 'must be a 0x-prefixed 32-byte transaction hash.', abort: true })
  .refine(isHex)

export const hexData = z
  .string()
  .regex(/^0x([a-fA-F0-9]{2})*$/, { abort: true })
  .refine(isHex)

/** Human-scale decimal string (e.g. "250.5"): USDC to spend or shares to sell. */
export const humanAmount = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,17})(\.[0-9]{1,18})?$/, {
    error: 'must be a positive decimal string such as "250.5".',
  })
  .refine((s) => Number(s) > 0, { error: 'must be greater than 0.' })

export const nonNegative = z.number().min(0)
export const positive = z.number().gt(0)
export const unixSeconds = z.number().int().nonnegative()

/** A ticker's characters (`symbolList` in the route table repeats it). */
export const SYMBOL = '[A-Za-z0-9][A-Za-z0-9._/-]{0,23}'

export const symbol = z
  .string()
  .regex(new RegExp(`^${SYMBOL}$`), { error: 'must be a ticker such as BTC, ETH, EUR, XAU or AAPLc.' })
  .describe('Ticker symbol')

export const side = z.enum(['buy', 'sell'])
