import { AppError } from '../../errors.js'

/** Every symbol of a scan is unknown to the candle path: nothing to read, so nothing to charge for. */
export class UnknownScanSymbolError extends AppError {
  override readonly name = 'UnknownScanSymbolError'
  constructor(readonly symbols: readonly string[]) {
    super(
      400,
      'unknown_symbol',
      `No price history for ${symbols.join(', ')} in USD: symbols must include an exchange product SYM-USD (such as BTC, ETH) or an oracle feed (such as EUR, XAU).`,
      'symbols',
      { unknown: [...symbols] },
    )
  }
}
