import { describe, expect, test } from 'vitest'
import { createQuoteSigner } from '../payments/gate/quoteToken.js'
import { requiredUtil } from './createPropDesk.js'
import { createPropQuoteTokens, paramsDigest } from './propQuoteToken.js'

const MEMBER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const open = {
  actionId: 'trade.open' as const,
  params: { pairIndex: 1, long: true, leverage: 5, collateralUsdc: 100 },
}
const tokens = createPropQuoteTokens(createQuoteSigner('a-secret-of-sixteen-chars'))

describe('prop quote tokens', () => {
  test('a token holds its cost for its member, action and params until it expires', () => {
    const token = tokens.sign(MEMBER, open, 10_000n, 1_000)
    expect(tokens.verify(token, MEMBER, open, 999)).toEqual({ verdict: 'valid', utilCost: 10_000n })
    expect(tokens.verify(token, MEMBER, open, 1_000)).toEqual({ verdict: 'valid', utilCost: 10_000n })
    expect(tokens.verify(token, MEMBER, open, 1_001)).toEqual({ verdict: 'expired' })
    // The same params in another key order are the same params.
    const reordered = {
      actionId: open.actionId,
      params: { collateralUsdc: 100, leverage: 5, long: true, pairIndex: 1 },
    }
    expect(tokens.verify(token, MEMBER, reordered, 999).verdict).toBe('valid')
    expect(tokens.verify(undefined, MEMBER, open, 999)).toEqual({ verdict: 'absent' })
  })

  test('attack: edited, borrowed or forged tokens are invalid', () => {
    const token = tokens.sign(MEMBER, open, 10_000n, 1_000)
    const [, signed] = token.split('~') as [string, string]
    const edits = [
      `9999~${signed}`,
      `010000~${signed}`,
      `-1~${signed}`,
      `${token}x`,
      token.replace('~1000.', '~2000.'),
      '',
      '~',
      tokens.sign(MEMBER, open, 10_000n, 1_000).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
      createPropQuoteTokens(createQuoteSigner('another-secret-sixteen')).sign(MEMBER, open, 10_000n, 1_000),
    ]
    for (const t of edits) expect(tokens.verify(t, MEMBER, open, 999), t).toEqual({ verdict: 'invalid' })
    expect(tokens.verify(token, OTHER, open, 999).verdict).toBe('invalid')
    expect(
      tokens.verify(token, MEMBER, { ...open, params: { ...open.params, leverage: 6 } }, 999).verdict,
    ).toBe('invalid')
    expect(tokens.verify(token, MEMBER, { actionId: 'trade.close', params: open.params }, 999).verdict).toBe(
      'invalid',
    )
  })

  test('params digest: key order and undefined members do not matter, values do', () => {
    expect(paramsDigest({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(
      paramsDigest({ b: { d: 'x', c: [1, 2] }, a: 1 }),
    )
    expect(paramsDigest({ a: 1, u: undefined })).toBe(paramsDigest({ a: 1 }))
    expect(paramsDigest({ a: 1 })).not.toBe(paramsDigest({ a: '1' }))
    expect(paramsDigest({ a: [1, 2] })).not.toBe(paramsDigest({ a: [2, 1] }))
  })
})

describe('requiredUtil', () => {
  const valid = (utilCost: bigint) => ({ verdict: 'valid' as const, utilCost })
  test('a valid quote holds within 2% above it, never asks more than today, and past 2% the price now applies', () => {
    expect(requiredUtil(10_100n, valid(10_000n))).toEqual({ required: 10_000n, quote: 'honoured' })
    expect(requiredUtil(10_200n, valid(10_000n))).toEqual({ required: 10_000n, quote: 'honoured' })
    expect(requiredUtil(10_201n, valid(10_000n))).toEqual({ required: 10_201n, quote: 'beyond_tolerance' })
    expect(requiredUtil(9_000n, valid(10_000n))).toEqual({ required: 9_000n, quote: 'honoured' })
    for (const verdict of ['absent', 'expired', 'invalid'] as const) {
      expect(requiredUtil(10_100n, { verdict })).toEqual({ required: 10_100n, quote: verdict })
    }
  })
})
