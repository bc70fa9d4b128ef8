import type { PythFeed } from './upstreams/pyth.js'

/** Tickers whose Pyth feed uses another base name. */
const PYTH_BASE_ALIASES: Readonly<Record<string, string>> = { WTI: 'USOILSPOT' }

/** Pyth asset types that can serve each candle class of the API. */
export const PYTH_TYPES_BY_CLASS: Readonly<Record<string, readonly string[]>> = {
  Crypto: ['Crypto'],
  Forex: ['FX'],
  Commodities: ['Metal', 'Commodities'],
  Indices: ['Equity', 'Index'],
  Stocks: ['Equity'],
}

/** The feed quoting `base` in `quote`, optionally limited to some asset types. */
export function findPythFeed(
  feeds: readonly PythFeed[],
  base: string,
  quote: string,
  assetTypes?: readonly string[],
): PythFeed | undefined {
  const wanted = PYTH_BASE_ALIASES[base] ?? base
  return feeds.find(
    (f) =>
      f.base.toUpperCase() === wanted.toUpperCase() &&
      f.quote.toUpperCase() === quote.toUpperCase() &&
      (assetTypes === undefined || assetTypes.includes(f.assetType)),
  )
}
