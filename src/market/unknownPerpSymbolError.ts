import { AppError } from '../errors.js'

/**
 * The ideas reads trade the perp venue's SYM/USD pairs: a ticker with no such pair (or no oracle feed for
 * it) has no idea to give, so nothing is read and nothing charged. `field` names where it came from: 400
 * naming `symbols` for a list, 404 `unknown_instrument` for one path or query symbol (`sym`, `a`, `b`).
 */
export class UnknownPerpSymbolError extends AppError {
  override readonly name = 'UnknownPerpSymbolError'
  constructor(
    readonly symbols: readonly string[],
    field: 'symbols' | 'sym' | 'a' | 'b',
  ) {
    const list = field === 'symbols'
    super(
      list ? 400 : 404,
      list ? 'unknown_symbol' : 'unknown_instrument',
      `The perp venue lists no ${symbols.map((s) => `${s}/USD`).join(', ')} pair with an oracle feed: ` +
        `${field} must name a listed market such as BTC, ETH, EUR, XAU, SPY or NVDA (GET /v1/risk/pairs ` +
        `lists them).`,
      field,
      { unknown: [...symbols] },
    )
  }
}
