import { keccak256, stringToHex } from 'viem'
import type { Instrument } from '../simulator/universe.js'

/**
 * Pyth feed ids for the devnet. BTC/USD and ETH/USD keep their real ids (protocols.md §7c) so code
 * that pins them works unchanged; every other id is keccak256 of the Pyth symbol string (e.g.
 * keccak256("Equity.US.AAPL/USD")) — deterministic, but NOT the real Pyth id. Resolve ids through
 * /v2/price_feeds rather than hard-coding them.
 */
const REAL_IDS: Readonly<Record<string, string>> = {
  'Crypto.BTC/USD': 'e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43',
  'Crypto.ETH/USD': 'ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace',
}

/** 64 lowercase hex chars, no 0x: the form Hermes returns. */
export function pythFeedId(inst: Instrument): string {
  return REAL_IDS[inst.pythSymbol] ?? keccak256(stringToHex(inst.pythSymbol)).slice(2)
}

/** Normalises a caller's id (with or without 0x, any case) to the Hermes form, or undefined if malformed. */
export function normaliseFeedId(raw: string): string | undefined {
  const id = raw.trim().toLowerCase().replace(/^0x/, '')
  return /^[0-9a-f]{64}$/.test(id) ? id : undefined
}

/** Hermes `attributes` for a feed (string values, as Hermes sends them). */
export function pythAttributes(inst: Instrument): Record<string, string> {
  const base = inst.pythSymbol === 'Commodities.USOILSPOT' ? 'USOILSPOT' : inst.from
  const attributes: Record<string, string> = {
    asset_type: inst.pythAssetType,
    base,
    description: `${inst.name.toUpperCase()} / ${inst.to === 'USD' ? 'US DOLLAR' : inst.to}`,
    display_symbol: `${inst.from}/${inst.to}`,
    generic_symbol: `${inst.from}${inst.to}`,
    quote_currency: inst.to,
    schedule: inst.assetClass === 'Crypto' ? '' : 'America/New_York;O,O,O,O,O,C,C;',
    symbol: inst.pythSymbol,
  }
  if (inst.pythAssetType === 'Equity') {
    attributes.country = 'US'
    attributes.cms_symbol = inst.from
    attributes.nasdaq_symbol = inst.from
  }
  return attributes
}
