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
  /**
   * `valid` when `token` was issued for exactly this quote and has not expired at `nowSec`; `expired`
   * when it was issued for it but is past its window; `invalid` for anything else (absent, edited,
   * issued for another amount or under another secret).
   */
  verify(token: unknown, quote: Omit<Quote, 'expiresAt'>, nowSec: number): QuoteVerdict
}

export type QuoteVerdict = 'valid' | 'expired' | 'invalid'

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
      if (typeof token !== 'string') return 'invalid'
      const dot = token.indexOf('.')
      // Plain decimal digits only: `0x7d0`, `2e3` or ` 2000` are other spellings of a signed expiry.
      if (dot <= 0 || !/^(0|[1-9][0-9]{0,14})$/.test(token.slice(0, dot))) return 'invalid'
      const expiresAt = Number(token.slice(0, dot))
      const given = Buffer.from(token.slice(dot + 1))
      const wanted = Buffer.from(mac({ ...q, expiresAt }))
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return 'invalid'
      return expiresAt < nowSec ? 'expired' : 'valid'
    },
  }
}
