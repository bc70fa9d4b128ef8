import { type Address, getAddress } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { catalogTokens } from '../chain/catalogTokens.js'
import type { LendingCatalog } from '../chain/lendingCatalog.js'

/**
 * Where a listed token's USD price comes from: the exchange's spot product (Coinbase Exchange, as
 * /v1/prices reads it), or par with a currency (a token redeemable 1:1, USDC for USD).
 */
export type PriceSource = { kind: 'spot'; product: string } | { kind: 'par'; currency: 'USD' }

export interface KnownToken {
  address: Address
  /** null: listed (so never screened) but not priced by the portfolio read. */
  price: PriceSource | null
}

const spot = (product: string): PriceSource => ({ kind: 'spot', product })
const PAR_USD: PriceSource = { kind: 'par', currency: 'USD' }

/**
 * The service's token list, the same tokens the builders' address book vets (src/builders/addressBook.ts):
 * Base's tokens of BASE_ADDRESSES, the lending catalog's vault shares, the tokenized stocks and UTIL. Prices:
 * WETH and aBasWETH (1:1 with WETH) at ETH-USD spot, cbBTC at BTC-USD spot, USDC and aBasUSDC at par.
 * Unpriced but listed: cbETH, USDbC, wstETH (no spot product is read for them), the Aave variable-debt tokens
 * (their balance is owed, not held), vault shares (valued in /v1/positions), tokenized stocks (valued by
 * /v1/stocks/{ticker}/price) and UTIL (no market).
 */
export function knownTokens(lending: LendingCatalog, utilToken: Address | null): KnownToken[] {
  const list: KnownToken[] = [
    { address: BASE_ADDRESSES.USDC, price: PAR_USD },
    { address: BASE_ADDRESSES.WETH, price: spot('ETH-USD') },
    { address: BASE_ADDRESSES.cbBTC, price: spot('BTC-USD') },
    { address: BASE_ADDRESSES.aBasUSDC, price: PAR_USD },
    { address: BASE_ADDRESSES.aBasWETH, price: spot('ETH-USD') },
    { address: BASE_ADDRESSES.cbETH, price: null },
    { address: BASE_ADDRESSES.USDbC, price: null },
    { address: BASE_ADDRESSES.wstETH, price: null },
    { address: BASE_ADDRESSES.variableDebtBasUSDC, price: null },
    { address: BASE_ADDRESSES.variableDebtBasWETH, price: null },
    ...catalogTokens(lending, utilToken).map((address) => ({ address, price: null })),
  ]
  const seen = new Set<string>()
  return list
    .map((t) => ({ ...t, address: getAddress(t.address) }))
    .filter((t) => !seen.has(t.address) && seen.add(t.address) !== undefined)
}
