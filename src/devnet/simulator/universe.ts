/**
 * Every symbol the devnet world quotes, with its gTrade pair index and market parameters.
 *
 * pairIndex: protocols.md §1 only pins 0 = BTC/USD, 1 = ETH/USD, 2 = LINK/USD; the SDK enum continues
 * 3 = DOGE, 4 = MATIC (now POL), 5 = ADA, which we keep. Beyond that real gTrade indices are sparse
 * (hundreds of delisted slots; third-party lists put AAPL at 58, XAU at 90, COIN at 376), so the rest
 * is our own dense, stable order: the devnet gTrade stand-in and /trading-variables/all use exactly
 * these positions, and pairIndex stays "position in the raw pairs array" as the real backend defines it.
 * Append new symbols at the end; never reorder.
 */

export type AssetClass = 'Crypto' | 'Forex' | 'Commodities' | 'Indices' | 'Stocks'

/** gTrade group indices, in the order of GTRADE_GROUPS. */
export const GROUP = { crypto: 0, forex: 1, stocks: 2, indices: 3, commodities: 4 } as const

export interface GtradeGroup {
  name: string
  /** Human leverage (the wire encodes x1e3). */
  minLeverage: number
  maxLeverage: number
}

export const GTRADE_GROUPS: readonly GtradeGroup[] = [
  { name: 'crypto', minLeverage: 1.1, maxLeverage: 250 },
  { name: 'forex', minLeverage: 1.1, maxLeverage: 1000 },
  { name: 'stocks', minLeverage: 1.1, maxLeverage: 50 },
  { name: 'indices', minLeverage: 1.1, maxLeverage: 100 },
  { name: 'commodities', minLeverage: 1.1, maxLeverage: 250 },
]

export interface GtradeFeeTier {
  /** Percent of position size, e.g. 0.06 = 0.06 %. */
  totalPositionSizeFeePct: number
  /** Percent of collateral charged on liquidation. */
  totalLiqCollateralFeePct: number
  oraclePositionSizeFeePct: number
  minPositionSizeUsd: number
}

/** One fee tier per group (feeIndex = groupIndex). */
export const GTRADE_FEES: readonly GtradeFeeTier[] = [
  {
    totalPositionSizeFeePct: 0.06,
    totalLiqCollateralFeePct: 10,
    oraclePositionSizeFeePct: 0.002,
    minPositionSizeUsd: 1500,
  },
  {
    totalPositionSizeFeePct: 0.03,
    totalLiqCollateralFeePct: 10,
    oraclePositionSizeFeePct: 0.001,
    minPositionSizeUsd: 1500,
  },
  {
    totalPositionSizeFeePct: 0.05,
    totalLiqCollateralFeePct: 10,
    oraclePositionSizeFeePct: 0.002,
    minPositionSizeUsd: 1500,
  },
  {
    totalPositionSizeFeePct: 0.05,
    totalLiqCollateralFeePct: 10,
    oraclePositionSizeFeePct: 0.002,
    minPositionSizeUsd: 1500,
  },
  {
    totalPositionSizeFeePct: 0.05,
    totalLiqCollateralFeePct: 10,
    oraclePositionSizeFeePct: 0.002,
    minPositionSizeUsd: 1500,
  },
]

/** How Pyth Hermes labels a feed (attributes.asset_type and the symbol prefix). */
export type PythAssetType = 'Crypto' | 'FX' | 'Metal' | 'Equity' | 'Commodities'

export interface Instrument {
  /** Canonical symbol: the base ticker for USD-quoted markets ('BTC', 'XAU', 'AAPL'); 'EUR/USD' style for forex. */
  symbol: string
  name: string
  /** gTrade pair legs, as in trading-variables `pairs[i].from` / `.to`. */
  from: string
  to: string
  assetClass: AssetClass
  pairIndex: number
  groupIndex: number
  feeIndex: number
  /** Where the mean-reverting price path is centred. */
  basePrice: number
  annualVolatility: number
  maxLeverage: number
  /** gTrade spread in percent (0.04 = 0.04 %, wire spreadP "400000000"). */
  spreadPct: number
  dailyVolumeUsd: number
  /** Typical synthetic gTrade open interest (USD, long + short) for the crowd read. */
  openInterestUsd: number
  /** Coinbase Exchange product id, or null where Coinbase does not list the asset. */
  coinbaseProduct: string | null
  pythSymbol: string
  pythAssetType: PythAssetType
  pythExpo: number
  /** Other spellings callers use ('MATIC' for POL, 'GOLD' for XAU). */
  aliases: readonly string[]
}

type Row = [
  symbol: string,
  name: string,
  basePrice: number,
  annualVolatility: number,
  maxLeverage: number,
  spreadPct: number,
  dailyVolumeUsd: number,
  openInterestUsd: number,
  aliases?: readonly string[],
]

// Coinbase Exchange does not list BNB or TRX: those are perp-only legs, as the spec anticipates.
const NOT_ON_COINBASE = new Set(['BNB', 'TRX'])

const CRYPTO: readonly Row[] = [
  ['BTC', 'Bitcoin', 98_000, 0.5, 250, 0.04, 1.2e9, 2.5e6],
  ['ETH', 'Ethereum', 3_600, 0.65, 250, 0.04, 7e8, 1.8e6],
  ['LINK', 'Chainlink', 18, 0.85, 100, 0.06, 5e7, 1.5e5],
  ['DOGE', 'Dogecoin', 0.2, 0.95, 100, 0.06, 1e8, 2e5],
  ['POL', 'Polygon Ecosystem Token', 0.3, 0.9, 100, 0.08, 1e7, 5e4, ['MATIC']],
  ['ADA', 'Cardano', 0.7, 0.85, 100, 0.06, 5e7, 1.2e5],
  ['SOL', 'Solana', 190, 0.8, 150, 0.05, 3e8, 6e5],
  ['XRP', 'XRP', 2.5, 0.8, 100, 0.05, 2.5e8, 3e5],
  ['BNB', 'BNB', 700, 0.55, 100, 0.05, 5e8, 2e5],
  ['AVAX', 'Avalanche', 28, 0.9, 100, 0.06, 3e7, 8e4],
  ['DOT', 'Polkadot', 5, 0.85, 100, 0.06, 1.5e7, 5e4],
  ['LTC', 'Litecoin', 95, 0.7, 100, 0.06, 3e7, 6e4],
  ['ARB', 'Arbitrum', 0.55, 0.95, 100, 0.08, 1.5e7, 5e4],
  ['OP', 'Optimism', 1.1, 0.95, 100, 0.08, 1e7, 4e4],
  ['UNI', 'Uniswap', 9, 0.9, 100, 0.06, 2e7, 5e4],
  ['AAVE', 'Aave', 260, 0.85, 100, 0.06, 4e7, 6e4],
  ['ATOM', 'Cosmos', 5, 0.85, 100, 0.08, 1e7, 3e4],
  ['NEAR', 'NEAR Protocol', 3, 0.95, 100, 0.08, 1.5e7, 3e4],
  ['BCH', 'Bitcoin Cash', 450, 0.75, 100, 0.06, 2e7, 4e4],
  ['XLM', 'Stellar', 0.35, 0.85, 100, 0.08, 2e7, 3e4],
  ['SHIB', 'Shiba Inu', 0.000014, 1.0, 50, 0.1, 1.5e7, 3e4],
  ['TRX', 'TRON', 0.28, 0.55, 100, 0.06, 1e8, 4e4],
  ['SUI', 'Sui', 3.6, 1.0, 100, 0.08, 6e7, 8e4],
  ['APT', 'Aptos', 5.5, 1.0, 100, 0.08, 1e7, 3e4],
  ['PEPE', 'Pepe', 0.00001, 1.2, 50, 0.1, 3e7, 5e4],
]

const FOREX: readonly Row[] = [
  ['EUR/USD', 'Euro / US Dollar', 1.16, 0.07, 1000, 0.01, 5e10, 4e5, ['EUR', 'EURUSD']],
  ['GBP/USD', 'British Pound / US Dollar', 1.33, 0.08, 1000, 0.01, 3e10, 2e5, ['GBP', 'GBPUSD']],
  ['USD/JPY', 'US Dollar / Japanese Yen', 150, 0.1, 1000, 0.01, 3e10, 2e5, ['JPY', 'USDJPY']],
  ['USD/CHF', 'US Dollar / Swiss Franc', 0.8, 0.08, 1000, 0.015, 1e10, 8e4, ['CHF', 'USDCHF']],
  ['AUD/USD', 'Australian Dollar / US Dollar', 0.66, 0.09, 1000, 0.015, 1.5e10, 8e4, ['AUD', 'AUDUSD']],
  ['USD/CAD', 'US Dollar / Canadian Dollar', 1.38, 0.06, 1000, 0.015, 1e10, 6e4, ['CAD', 'USDCAD']],
  ['NZD/USD', 'New Zealand Dollar / US Dollar', 0.58, 0.1, 1000, 0.02, 5e9, 4e4, ['NZD', 'NZDUSD']],
]

const COMMODITIES: readonly Row[] = [
  ['XAU', 'Gold', 4_000, 0.16, 250, 0.02, 2e10, 1.2e6, ['GOLD']],
  ['XAG', 'Silver', 48, 0.3, 250, 0.03, 4e9, 3e5, ['SILVER']],
  ['XPT', 'Platinum', 1_500, 0.28, 100, 0.05, 5e8, 5e4, ['PLATINUM']],
  ['WTI', 'WTI Crude Oil', 65, 0.35, 100, 0.05, 1e10, 2e5, ['OIL', 'USOIL', 'CL']],
]

const INDICES: readonly Row[] = [
  ['SPY', 'SPDR S&P 500 ETF', 670, 0.16, 100, 0.03, 3e10, 6e5, ['SPX', 'SP500']],
  ['QQQ', 'Invesco QQQ Trust', 600, 0.2, 100, 0.03, 2e10, 4e5, ['NDX', 'NASDAQ100']],
  ['IWM', 'iShares Russell 2000 ETF', 240, 0.22, 100, 0.04, 6e9, 8e4],
  ['DIA', 'SPDR Dow Jones Industrial Average ETF', 460, 0.15, 100, 0.04, 1.5e9, 5e4],
]

/** The 13 underlyings of Coinbase tokenized stocks (protocols.md §7b), alphabetical. */
const STOCKS: readonly Row[] = [
  ['AAPL', 'Apple Inc', 255, 0.26, 50, 0.05, 1.2e10, 2e5],
  ['AMZN', 'Amazon.com Inc', 225, 0.32, 50, 0.05, 1e10, 1.5e5],
  ['COIN', 'Coinbase Global Inc', 330, 0.7, 50, 0.08, 3e9, 1e5],
  ['CRCL', 'Circle Internet Group Inc', 120, 0.9, 50, 0.1, 2e9, 6e4],
  ['GOOGL', 'Alphabet Inc Class A', 245, 0.3, 50, 0.05, 8e9, 1.2e5],
  ['INTC', 'Intel Corp', 36, 0.5, 50, 0.06, 3e9, 4e4],
  ['META', 'Meta Platforms Inc', 720, 0.36, 50, 0.05, 8e9, 1.2e5],
  ['MSFT', 'Microsoft Corp', 510, 0.24, 50, 0.05, 9e9, 1.5e5],
  ['MSTR', 'Strategy Inc', 320, 0.8, 50, 0.1, 4e9, 1e5],
  ['NVDA', 'NVIDIA Corp', 185, 0.5, 50, 0.05, 3e10, 3e5],
  ['SNDK', 'Sandisk Corp', 150, 0.7, 50, 0.1, 1e9, 3e4],
  // Tokenized SpaceX exposure; there is no public listing to anchor on, so the base price is a placeholder.
  ['SPCX', 'SpaceX', 200, 0.5, 50, 0.1, 5e8, 3e4],
  ['TSLA', 'Tesla Inc', 430, 0.6, 50, 0.05, 2.5e10, 3e5],
]

const PYTH_ASSET_TYPE: Record<AssetClass, PythAssetType> = {
  Crypto: 'Crypto',
  Forex: 'FX',
  Commodities: 'Metal',
  Indices: 'Equity',
  Stocks: 'Equity',
}

const GROUP_OF: Record<AssetClass, number> = {
  Crypto: GROUP.crypto,
  Forex: GROUP.forex,
  Stocks: GROUP.stocks,
  Indices: GROUP.indices,
  Commodities: GROUP.commodities,
}

function pythExpoFor(assetClass: AssetClass, basePrice: number): number {
  if (assetClass === 'Crypto') return basePrice < 0.001 ? -10 : -8
  if (assetClass === 'Forex') return -5
  if (assetClass === 'Commodities') return -3
  return -5
}

function pythSymbolFor(
  assetClass: AssetClass,
  from: string,
  to: string,
): { symbol: string; type: PythAssetType } {
  // Pyth lists WTI as a spot CFD under Commodities, not as a Metal (UNCERTAIN: name taken from memory of the feed list).
  if (from === 'WTI') return { symbol: 'Commodities.USOILSPOT', type: 'Commodities' }
  const type = PYTH_ASSET_TYPE[assetClass]
  const prefix = type === 'Equity' ? 'Equity.US' : type
  return { symbol: `${prefix}.${from}/${to}`, type }
}

function build(): readonly Instrument[] {
  const classes: readonly [AssetClass, readonly Row[]][] = [
    ['Crypto', CRYPTO],
    ['Forex', FOREX],
    ['Commodities', COMMODITIES],
    ['Indices', INDICES],
    ['Stocks', STOCKS],
  ]
  const out: Instrument[] = []
  for (const [assetClass, rows] of classes) {
    for (const [symbol, name, basePrice, vol, maxLev, spread, volume, oi, aliases = []] of rows) {
      const [from, to] = symbol.includes('/') ? (symbol.split('/') as [string, string]) : [symbol, 'USD']
      const pyth = pythSymbolFor(assetClass, from, to)
      out.push({
        symbol,
        name,
        from,
        to,
        assetClass,
        pairIndex: out.length,
        groupIndex: GROUP_OF[assetClass],
        feeIndex: GROUP_OF[assetClass],
        basePrice,
        annualVolatility: vol,
        maxLeverage: maxLev,
        spreadPct: spread,
        dailyVolumeUsd: volume,
        openInterestUsd: oi,
        coinbaseProduct: assetClass === 'Crypto' && !NOT_ON_COINBASE.has(symbol) ? `${symbol}-USD` : null,
        pythSymbol: pyth.symbol,
        pythAssetType: pyth.type,
        pythExpo: pythExpoFor(assetClass, basePrice),
        aliases,
      })
    }
  }
  return out
}

export const UNIVERSE: readonly Instrument[] = build()

const BY_KEY = new Map<string, Instrument>()
for (const instrument of UNIVERSE) {
  const keys = [
    instrument.symbol,
    `${instrument.from}/${instrument.to}`,
    `${instrument.from}-${instrument.to}`,
    `${instrument.from}${instrument.to}`,
    instrument.pythSymbol,
    ...instrument.aliases,
  ]
  if (instrument.to === 'USD') keys.push(instrument.from)
  for (const key of keys) {
    const k = key.toUpperCase()
    if (!BY_KEY.has(k)) BY_KEY.set(k, instrument)
  }
}

/**
 * Resolves what callers type ('btc', 'BTC-USD', 'EUR', 'USD/JPY', 'Crypto.BTC/USD'); with a quote,
 * ('USD', 'JPY') → USD/JPY. Returns undefined rather than throwing so callers pick their own error.
 */
export function findInstrument(input: string, quote?: string): Instrument | undefined {
  const key = input.trim().toUpperCase()
  if (quote !== undefined && quote.trim() !== '') {
    const q = quote.trim().toUpperCase()
    return BY_KEY.get(`${key}/${q}`) ?? (q === 'USD' ? BY_KEY.get(key) : undefined)
  }
  return BY_KEY.get(key)
}

export function instrumentByPairIndex(pairIndex: number): Instrument | undefined {
  return UNIVERSE[pairIndex]
}
