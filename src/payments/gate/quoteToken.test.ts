import { expect, test } from 'vitest'
import { createQuoteSigner } from './quoteToken.js'

const quote = { route: 'GET /v1/prices', amount: '1000', payTo: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' }

test('a quote verifies for exactly its route, amount and payee until it expires', () => {
  const signer = createQuoteSigner('a-shared-secret-of-some-length')
  const token = signer.sign({ ...quote, expiresAt: 1000 })
  expect(signer.verify(token, quote, 999)).toBe('valid')
  expect(signer.verify(token, quote, 1000)).toBe('valid')
  expect(signer.verify(token, quote, 1001)).toBe('expired')
  expect(signer.verify(token, { ...quote, amount: '999' }, 999)).toBe('invalid')
  expect(signer.verify(token, { ...quote, route: 'GET /v1/candles' }, 999)).toBe('invalid')
  expect(signer.verify(token.replace(/^1000/, '9999'), quote, 999)).toBe('invalid')
  expect(signer.verify(undefined, quote, 999)).toBe('invalid')
  expect(signer.verify('garbage', quote, 999)).toBe('invalid')
})

test('instances sharing a secret honour each other’s quotes; others do not', () => {
  const a = createQuoteSigner('a-shared-secret-of-some-length')
  const b = createQuoteSigner('a-shared-secret-of-some-length')
  const c = createQuoteSigner(undefined)
  const token = a.sign({ ...quote, expiresAt: 2000 })
  expect(b.verify(token, quote, 1500)).toBe('valid')
  expect(c.verify(token, quote, 1500)).toBe('invalid')
})

test('attack: another spelling of a signed expiry is invalid (the HMAC covers the number, the token its digits)', () => {
  const signer = createQuoteSigner('a-shared-secret-of-some-length')
  const [, mac] = signer.sign({ ...quote, expiresAt: 2000 }).split('.') as [string, string]
  expect(signer.verify(`2000.${mac}`, quote, 1500)).toBe('valid')
  for (const spelling of ['0x7d0', '2e3', '02000', '+2000', ' 2000', '2000.0']) {
    expect(signer.verify(`${spelling}.${mac}`, quote, 1500), spelling).toBe('invalid')
  }
})
