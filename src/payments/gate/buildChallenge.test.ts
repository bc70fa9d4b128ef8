import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from '@x402/core/http'
import { describe, expect, test } from 'vitest'
import { buildChallenge } from './buildChallenge.js'

const input = {
  resourceUrl: 'http://127.0.0.1:8402/v1/prices?symbols=BTC',
  description: 'Spot and perp prices',
  amount: 1000n,
  payTo: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  publicUrl: 'http://127.0.0.1:8402',
  creditRecipient: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
} as const

describe('buildChallenge', () => {
  test('default: exact USDC on Base for the quoted amount, with the EIP-712 domain', () => {
    const c = buildChallenge(input)
    expect(c.x402Version).toBe(2)
    expect(c.accepts).toEqual([
      {
        scheme: 'exact',
        network: 'eip155:8453',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        amount: '1000',
        payTo: input.payTo,
        maxTimeoutSeconds: 120,
        extra: { name: 'USD Coin', version: '2' },
      },
    ])
    expect(c.utilCredit).toMatchObject({
      recipient: input.creditRecipient,
      rate: 0.5,
      surgeExempt: true,
      maxTopUpAgeSec: 86_400,
      topUpHeader: 'X-UTIL-TOPUP',
      optOutHeader: 'X-UTIL-CREDIT',
    })
  })

  test('behavior: promote strings carry the placeholder, or the ref address when given', () => {
    const anonymous = buildChallenge(input)
    for (const value of [
      anonymous.promote.shareUrl,
      anonymous.promote.referralParam,
      anonymous.promote.pitch,
    ]) {
      expect(value).toContain('<your-wallet>')
    }
    const ref = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const referred = buildChallenge({ ...input, ref })
    expect(JSON.stringify(referred.promote)).not.toContain('<your-wallet>')
    expect(referred.promote.referralParam).toBe(`ref=${ref}`)
  })

  test('behavior: round-trips through the official PAYMENT-REQUIRED header codec', () => {
    const c = buildChallenge(input)
    const decoded = decodePaymentRequiredHeader(encodePaymentRequiredHeader(c))
    expect(decoded.accepts).toEqual(c.accepts)
    expect(decoded.x402Version).toBe(2)
  })
})
