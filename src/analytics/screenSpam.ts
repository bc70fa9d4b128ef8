/** Why a token was screened out of a portfolio's priced list. */
export type SpamReason = 'scam-pattern' | 'impersonation' | 'unlisted-unpriced'

export interface TokenFacts {
  symbol: string
  /** The token's name; null when the chain does not answer name(). */
  name: string | null
  /** Whether the token's address is on the service's token list (the address book). */
  listed: boolean
  /** Whether a reliable price source exists for it (exchange spot or par). */
  priced: boolean
}

/** Words airdrop scams put in a token's name or symbol to make the holder visit a site. */
const SCAM_WORDS =
  /\b(claim|claims|visit|reward|rewards|airdrop|voucher|bonus|giveaway|gift|redeem|eligible)\b/i
/** A URL or a bare domain: "http", "www", "t.me/…", "x.com", "usdc-drop.xyz". */
const URL_LIKE =
  /(https?:|www\.|t\.me\/|\.(com|io|xyz|org|net|app|finance|site|online|top|club|fi|gg|co|me|live|pro)\b)/i
/** Anything outside printable ASCII: homoglyphs (Cyrillic "USDС"), zero-width and bidi characters. */
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/

/**
 * The portfolio's spam rule, applied in this order (the first that matches is the reason):
 * 1. a token on the service's token list is never screened;
 * 2. `scam-pattern`: its name or symbol holds a URL or domain, an airdrop-scam word (claim, visit, reward,
 *    airdrop, voucher, bonus, giveaway, gift, redeem, eligible), a `$` in the symbol, or any character
 *    outside printable ASCII (lookalike letters, invisible characters);
 * 3. `impersonation`: its symbol equals (case-insensitively) a listed token's symbol at another address;
 * 4. `unlisted-unpriced`: it is not listed and has no reliable price source.
 * An unlisted token with a reliable price source and none of the patterns is kept.
 */
export function screenSpam(token: TokenFacts, listedSymbols: ReadonlySet<string>): SpamReason | null {
  if (token.listed) return null
  const texts = [token.symbol, token.name ?? '']
  if (
    token.symbol.includes('$') ||
    texts.some((t) => SCAM_WORDS.test(t) || URL_LIKE.test(t) || NOT_PRINTABLE_ASCII.test(t))
  ) {
    return 'scam-pattern'
  }
  if (listedSymbols.has(token.symbol.toUpperCase())) return 'impersonation'
  if (!token.priced) return 'unlisted-unpriced'
  return null
}
