import type { Address, Hex } from 'viem'
import { describe, expect, expectTypeOf, test } from 'vitest'
import { z } from 'zod'
import {
  address,
  atomicAmount,
  atomicAmountInput,
  checksumHolds,
  hexData,
  marketId,
  nftTokenId,
  nftTokenIdDigits,
  positiveAtomicAmount,
  tokenOrNative,
  wallet,
} from './fields.js'

const CHECKSUMMED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const MAX_UINT256 = (2n ** 256n - 1n).toString()

const messages = (r: { error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message)

describe('address', () => {
  test('default: checksummed, all-lowercase and all-uppercase hex are accepted', () => {
    for (const a of [CHECKSUMMED, CHECKSUMMED.toLowerCase(), `0x${CHECKSUMMED.slice(2).toUpperCase()}`]) {
      expect(address.safeParse(a).success, a).toBe(true)
      expect(tokenOrNative.safeParse(a).success, a).toBe(true)
    }
    expect(tokenOrNative.safeParse('0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE').success).toBe(true)
  })

  test('error: mixed case with a wrong EIP-55 checksum is refused with one instructive issue', () => {
    const wrong = CHECKSUMMED.replace('C5', 'c5') // one letter's case flipped: same address, bad checksum
    expect(checksumHolds(wrong)).toBe(false)
    const r = address.safeParse(wrong)
    expect(messages(r)).toEqual([expect.stringMatching(/EIP-55 checksum.*all lowercase/)])
    expect(tokenOrNative.safeParse(wrong).success).toBe(false)
    expect(address.optional().safeParse(wrong).success).toBe(false)
  })

  test('error: a malformed address reports the pattern only', () => {
    expect(messages(address.safeParse('0xZZ'))).toEqual([expect.stringMatching(/0x \+ 40 hex/)])
  })
})

describe('atomic amounts', () => {
  test('default: canonical digits are accepted, zero only where zero is meaningful', () => {
    for (const v of ['0', '1', '1000000', MAX_UINT256])
      expect(atomicAmount.safeParse(v).success, v).toBe(true)
    for (const v of ['1', '1000000', MAX_UINT256])
      expect(positiveAtomicAmount.safeParse(v).success, v).toBe(true)
    expect(nftTokenId.safeParse('42').success).toBe(true)
  })

  test('error: leading zeros are refused, with a message saying so', () => {
    for (const v of ['00', '01', '0001000000']) {
      expect(messages(atomicAmount.safeParse(v)), v).toEqual([expect.stringMatching(/without leading zeros/)])
      expect(messages(positiveAtomicAmount.safeParse(v)), v).toEqual([
        expect.stringMatching(/positive integer in the token's smallest unit, without leading zeros/),
      ])
    }
  })

  test('error: zero is refused where the amount moves tokens', () => {
    expect(messages(positiveAtomicAmount.safeParse('0'))).toEqual([expect.stringMatching(/positive integer/)])
    expect(nftTokenId.safeParse('0').success).toBe(false)
  })

  test('error: signs, decimals, blanks and values past 2^256 - 1 are refused', () => {
    for (const v of ['', '-1', '+1', '1.0', '1e6', ' 1', '0x10']) {
      expect(atomicAmount.safeParse(v).success, v).toBe(false)
      expect(positiveAtomicAmount.safeParse(v).success, v).toBe(false)
    }
    const over = (2n ** 256n).toString()
    expect(messages(atomicAmount.safeParse(over))).toEqual([expect.stringMatching(/256 bits/)])
    expect(positiveAtomicAmount.safeParse('9'.repeat(79)).success).toBe(false)
  })
})

describe('parsed types', () => {
  test('behavior: amounts the code computes with parse to bigint; published amounts stay digits', () => {
    expect(positiveAtomicAmount.parse(MAX_UINT256)).toBe(2n ** 256n - 1n)
    expect(atomicAmountInput.parse('0')).toBe(0n)
    expect(nftTokenId.parse('42')).toBe(42n)
    expect(atomicAmount.parse('42')).toBe('42')
    expect(nftTokenIdDigits.parse('42')).toBe('42')
    expectTypeOf(positiveAtomicAmount.parse('1')).toEqualTypeOf<bigint>()
    expectTypeOf(atomicAmount.parse('1')).toEqualTypeOf<string>()
  })

  test('behavior: an address keeps the case it was sent in and is typed Address; hex fields are typed Hex', () => {
    expect(address.parse(CHECKSUMMED)).toBe(CHECKSUMMED)
    expect(wallet.parse(CHECKSUMMED.toLowerCase())).toBe(CHECKSUMMED.toLowerCase())
    expectTypeOf(address.parse(CHECKSUMMED)).toEqualTypeOf<Address>()
    expectTypeOf(wallet.parse(CHECKSUMMED)).toEqualTypeOf<Address>()
    expectTypeOf(marketId.parse(`0x${'1'.repeat(64)}`)).toEqualTypeOf<Hex>()
    expectTypeOf(hexData.parse('0x')).toEqualTypeOf<Hex>()
  })

  test('default: parsing to a type changes no published schema (the input JSON Schema is the string one)', () => {
    const json = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'throw' })
    const { description: _d, ...parsed } = json(positiveAtomicAmount)
    expect(parsed.pattern).toBe('^[1-9][0-9]*$')
    expect(json(atomicAmountInput)).toEqual(json(atomicAmount))
    expect(json(nftTokenId)).toEqual(json(nftTokenIdDigits))
    expect(json(address)).toMatchObject({ type: 'string', pattern: '^0x[a-fA-F0-9]{40}$' })
  })
})
