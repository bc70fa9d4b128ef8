import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export interface Quote {
  /** `METHOD /path` of the priced route. */
  route: string
  /** USDC atomic units. */
  amount: string
  payTo: string
  /** Unix seconds. */
  expiresAt: number
}

/**
 * Signs and checks quotes so a price stays payable for its validity window even if surge moves in
 * between: the challenge carries `extra.quote`, the client echoes it in `accepted`, and any instance
 * holding the same secret honours it. The token is `expiresAt.hmac`; the other fields are re-supplied
 * by the verifier, so nothing in the token can be edited.
 */
export interface QuoteSigner {
  sign(quote: Quote): string
  /** True when `token` was issued for exactly this quote and has not expired at `nowSec`. */
  verify(token: unknown, quote: Omit<Quote, 'expiresAt'>, nowSec: number): boolean
}

export function createQuoteSigner(secret: string | undefined): QuoteSigner {
  // Without a configured secret, quotes are honoured only by the instance that issued them.
  const key = secret ?? randomBytes(32).toString('hex')
  const mac = (q: Quote) =>
    createHmac('sha256', key)
      .update(`${q.route}|${q.amount}|${q.payTo.toLowerCase()}|${q.expiresAt}`)
      .digest('base64url')
  return {
    sign: (q) => `${q.expiresAt}.${mac(q)}`,
    verify(token, q, nowSec) {
      if (typeof token !== 'string') return false
      const dot = token.indexOf('.')
      const expiresAt = Number(token.slice(0, dot))
      if (dot <= 0 || !Number.isSafeInteger(expiresAt) || expiresAt < nowSec) return false
      const given = Buffer.from(token.slice(dot + 1))
      const wanted = Buffer.from(mac({ ...q, expiresAt }))
      return given.length === wanted.length && timingSafeEqual(given, wanted)
    },
  }
}
