import { type Address, parseAbi } from 'viem'

/** Coinbase tokenized stocks on Base (protocols.md §7b), by ticker. */
export const STOCK_TICKERS = [
  'AAPLc',
  'AMZNc',
  'COINc',
  'CRCLc',
  'GOOGLc',
  'INTCc',
  'METAc',
  'MSFTc',
  'MSTRc',
  'NVDAc',
  'SNDKc',
  'SPCXc',
  'TSLAc',
] as const

/**
 * Whether `token` is at a B20 precompile address (0xb2 then ten zero bytes), as Coinbase's tokenized stocks
 * are. Such tokens have no bytecode on Base, which matters to venues that check `code.length`.
 */
export function isB20Token(token: Address): boolean {
  return /^0xb2(00){10}/i.test(token)
}

export type StockTicker = (typeof STOCK_TICKERS)[number]

export interface TokenizedStock {
  name: string
  /** The B20 stock token. */
  token: Address
  /** Its Chainlink total-return feed (8 decimals: underlying price x multiplier). */
  feed: Address
}

/** Token and feed addresses on Base; the oracle registry is BASE_ADDRESSES.StockOracleRegistry. */
export const TOKENIZED_STOCKS: Readonly<Record<StockTicker, TokenizedStock>> = {
  AAPLc: {
    name: 'Apple',
    token: '0xb200000000000000000000C2e324d24d7eEcd1fb',
    feed: '0x787f13dEa48Db0897CbCDD985de77809D837F988',
  },
  AMZNc: {
    name: 'Amazon',
    token: '0xb200000000000000000000d9192b6B456483C2E8',
    feed: '0x06A8E4b3aBB3B7543d8396FB2B763d22820cB295',
  },
  COINc: {
    name: 'Coinbase',
    token: '0xb200000000000000000000c85a31389D71F3ecfb',
    feed: '0x408e44f504A7371a345F03a73dDC96A4b48e8aa7',
  },
  CRCLc: {
    name: 'Circle',
    token: '0xB20000000000000000000019f6E7C675b73C2e4D',
    feed: '0x0231cF2635D1E17bB5c2462cc7504Ba1fBd61f33',
  },
  GOOGLc: {
    name: 'Alphabet',
    token: '0xb2000000000000000000002D0BA3164cc74f58B7',
    feed: '0x5bF49E0ffA937CE2FfF033c739aD7C634c4D34F2',
  },
  INTCc: {
    name: 'Intel',
    token: '0xB2000000000000000000004AFF16039bA04bdFBc',
    feed: '0xAB657C39bac0D5886250D70849e2E3E008F2EECB',
  },
  METAc: {
    name: 'Meta Platforms',
    token: '0xb2000000000000000000008bC8786B856E61707C',
    feed: '0x6526aE6797A76123638b863AeE4dD27Ba4E4b27D',
  },
  MSFTc: {
    name: 'Microsoft',
    token: '0xB200000000000000000000Ab99cFa739E253872B',
    feed: '0xeB10A6c9aa7E537aEd766C08c35Dae35B321b18c',
  },
  MSTRc: {
    name: 'Strategy',
    token: '0xb2000000000000000000004884b426556b92883d',
    feed: '0xB3cE282CD188b35DA0E38D8Bc7d58e33173D202a',
  },
  NVDAc: {
    name: 'NVIDIA',
    token: '0xb20000000000000000000078ee7ce2fE4908108C',
    feed: '0x04689a41629776563E6822F76f2e57D148d28513',
  },
  SNDKc: {
    name: 'Sandisk',
    token: '0xb200000000000000000000397293Cb8cda9a10c5',
    feed: '0x388b0dC46C0Fb05A74BeE0994fa5b02c6Fcca2eA',
  },
  SPCXc: {
    name: 'SpaceX',
    token: '0xb2000000000000000000007b9fcbd005511aCBd5',
    feed: '0x6A634B235903C4ad6376892180d6fF8612e3Fa68',
  },
  TSLAc: {
    name: 'Tesla',
    token: '0xb2000000000000000000001e800a7f5189430cD0',
    feed: '0xFaf869185383a24F8cb00e27BdA6b63B9905DCb4',
  },
}

/** A ticker as callers write it, in any case (aaplc, AAPLC, AAPLc), to its registered spelling; else undefined. */
export function findStockTicker(symbol: string): StockTicker | undefined {
  return STOCK_TICKERS.find((t) => t.toLowerCase() === symbol.toLowerCase())
}

/** Token decimals of every tokenized stock (protocols.md §7b). */
export const STOCK_DECIMALS = 8

/** Freshness bound of a stock feed: its heartbeat (24 h; it also freezes off-hours and on a registry pause). */
export const STOCK_FEED_HEARTBEAT_SEC = 86_400

/** The B20 stock token: an ERC-20 of 8 decimals whose `multiplier()` (WAD) scales one token to shares. */
export const stockTokenAbi = parseAbi([
  'function multiplier() view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
])

/** The Chainlink total-return feed (AggregatorV3): token price = underlying price x multiplier. */
export const stockFeedAbi = parseAbi([
  'function decimals() view returns (uint8)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
])

/** The onchain (oracle) registry at BASE_ADDRESSES.StockOracleRegistry; reverts for an unregistered token. */
export const stockRegistryAbi = parseAbi([
  'function getOracleParams(address token) view returns (uint256 multiplier, bool paused)',
])
