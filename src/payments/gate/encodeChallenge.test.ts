import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from '@x402/core/http'
import { describe, expect, test } from 'vitest'
import { loadConfig } from '../../config.js'
import { getCandlesRoute } from '../../routes/candles/getCandles.js'
import { buildChallenge } from './buildChallenge.js'
import { challengeExtensions, headerExtensions } from './challengeExtensions.js'
import { encodeChallenge } from './encodeChallenge.js'

const config = loadConfig({})
const extensions = challengeExtensions(getCandlesRoute, config)
const compact = headerExtensions(extensions)
const json = { header: JSON.stringify(compact), body: JSON.stringify(extensions) }
const challenge = buildChallenge({
  resourceUrl: 'https://agentdesk.example/v1/candles?product=BTC-USD',
  description: 'Candles — “quoted” ünïcode',
  amount: 1000n,
  payTo: config.payTo,
  publicUrl: 'https://agentdesk.example',
  creditRecipient: config.payTo,
  quote: 'q.sig',
})

describe('encodeChallenge', () => {
  test('behavior: the header decodes to what the official encoder writes, with the compact extensions; the body has the full ones', () => {
    const { promote, utilCredit, ...required } = challenge
    const official = encodePaymentRequiredHeader({ ...required, extensions: compact })
    const ours = encodeChallenge(challenge, json)
    expect(decodePaymentRequiredHeader(ours.header)).toEqual(decodePaymentRequiredHeader(official))
    expect(JSON.parse(ours.body)).toEqual({ ...challenge, extensions })
  })

  test('behavior: a refusal carries its code as the string `error` in header and body, and its error object under `refusal` in the body', () => {
    const error = { code: 'payment_expired', body: { code: 'payment_expired', message: 'expired' } }
    const ours = encodeChallenge(challenge, json, error)
    expect(decodePaymentRequiredHeader(ours.header)).toMatchObject({
      error: 'payment_expired',
      extensions: compact,
    })
    expect(JSON.parse(ours.body)).toMatchObject({
      error: 'payment_expired',
      refusal: error.body,
      extensions,
      promote: challenge.promote,
    })
  })
})
