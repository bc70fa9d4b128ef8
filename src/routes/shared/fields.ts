import { z } from 'zod'
import { MAX_SLIPPAGE_BPS } from '../../analytics/minOutAfterSlippage.js'
import { address } from '../../chain/addressSchema.js'

/**
 * Field schemas shared by the route table. Each carries the spec's limit and a message that tells the
 * caller what is allowed, so every 400 reads as an instruction.
 *
 * Input rules every route gets through these fields (and the input layer, for repeated query keys and
 * plain-decimal query numbers):
 * an address in mixed case must carry a valid EIP-55 checksum (all-lowercase and all-uppercase hex carry
 * none and are accepted); atomic amounts are canonical decimal (no leading zeros, at most 2^256 - 1), and
 * an amount that moves tokens must be positive (`positiveAtomicAmount`).
 */

/** Defined with the chain (the payment gate reads `?ref=` with it): listed here with every other field. */
export { address }

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

/** An atomic amount where zero is meaningful (balances, outputs, "0 collects fees only"). */
export const atomicAmount = canonicalUint(
  true,
  'must be a whole number in the token\'s smallest unit, as digits without leading zeros ("0" alone for zero).',
).describe("Atomic amount: digits in the token's smallest unit, no leading zeros")

/** An atomic amount that moves tokens: zero makes no sense there. */
export const positiveAtomicAmount = canonicalUint(
  false,
  'must be a positive integer in the token\'s smallest unit, without leading zeros (e.g. "1000000" for 1 USDC).',
).describe("Positive atomic amount: digits in the token's smallest unit, no leading zeros, not 0")

/** A position NFT id (uint256). Position managers start at 1, so 0 never names a position. */
export const nftTokenId = canonicalUint(
  false,
  'must be a position NFT id: a positive integer without leading zeros.',
).describe('Position NFT token id: a positive integer, no leading zeros')

export const marketId = z
  .string()
  .regex(/^0x[a-fA-F0-9]{64}$/, { error: 'must be a 0x-prefixed 32-byte hex market id (0x + 64 hex).' })
  .describe('Market id, 0x + 64 hex')

export const txHash = z
  .string()
  .regex(/^0x[a-fA-F0-9]{64}$/, { error: 'must be a 0x-prefixed 32-byte transaction hash.' })

export const hexData = z.string().regex(/^0x([a-fA-F0-9]{2})*$/)

const SYMBOL = '[A-Za-z0-9][A-Za-z0-9._/-]{0,23}'

export const symbol = z
  .string()
  .regex(new RegExp(`^${SYMBOL}$`), { error: 'must be a ticker such as BTC, ETH, EUR, XAU or AAPLc.' })
  .describe('Ticker symbol')

/** Query strings are text: numbers arrive as digits and are coerced, then range-checked. */
export const queryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max)
export const queryNumber = (min: number) => z.coerce.number().min(min)

/**
 * A comma-separated ticker list with at most `max` entries. The pattern carries the count limit into the
 * JSON Schema, because the array it becomes after the split is invisible to documents.
 */
export function symbolList(max: number) {
  return z
    .string()
    .regex(new RegExp(`^${SYMBOL}(,${SYMBOL}){0,${max - 1}}$`), {
      error: `must be a comma-separated list of 1 to ${max} tickers, e.g. BTC,ETH.`,
    })
    .describe(`Comma-separated tickers, at most ${max}`)
    .transform((s) => [...new Set(s.split(','))])
}

/** slippageBps: integer basis points in 0..max, default 100 (1%). */
export const slippageBpsQuery = (max: number) =>
  queryInt(0, max).default(100).describe(`Slippage tolerance in basis points, 0..${max}, default 100`)
export const slippageBpsBody = (max = MAX_SLIPPAGE_BPS) =>
  z
    .number()
    .int()
    .min(0)
    .max(max)
    .default(100)
    .describe(`Slippage tolerance in basis points, 0..${max}, default 100`)

export const assetClass = z
  .enum(['Commodities', 'Indices', 'Forex', 'Stocks'])
  .describe('Asset class for non-crypto symbols')
export const candleClass = z.enum(['Commodities', 'Indices', 'Forex', 'Stocks', 'Crypto'])
export const side = z.enum(['buy', 'sell'])

/** TA timeframe: seconds (60, 300, 900, 3600, 86400) or the labels 1m, 5m, 15m, 1H, 1D. */
export const granularity = z
  .enum(['60', '300', '900', '3600', '86400', '1m', '5m', '15m', '1H', '1D'])
  .default('900')
  .transform((g) => GRANULARITY_SECONDS[g] as number)
  .describe('Timeframe: 60|300|900|3600|86400 seconds or 1m|5m|15m|1H|1D; default 900')

const GRANULARITY_SECONDS: Record<string, number> = {
  '60': 60,
  '300': 300,
  '900': 900,
  '3600': 3600,
  '86400': 86400,
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1H': 3600,
  '1D': 86400,
}

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

/** One upstream's outcome in a `sources` block (shared by the wallet reads). */
export const sourceStatus = z
  .union([z.object({ ok: z.literal(true) }), z.object({ ok: z.literal(false), error: z.string() })])
  .describe(
    'ok, or why this source failed (the sections it feeds are then empty, null or reduced, as the description says)',
  )
