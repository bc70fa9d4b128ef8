import { type Address, getAddress, type Hex } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { catalogTokens } from '../chain/catalogTokens.js'
import type { LendingCatalog } from '../chain/lendingCatalog.js'

/**
 * The contracts a builder may send a caller to: the network's address book (protocols and tokens), the
 * catalog's vaults, the tokenized stocks and UTIL. A step to anything else is refused, so a caller-supplied
 * address (a vault, a token) can never turn into a call to a contract we have not vetted.
 */
export interface AddressBook {
  has(address: Address): boolean
  /**
   * Whether a Morpho Blue market id is one of the catalog's. Anyone can create a Morpho market with
   * listed tokens and an oracle of their own, and such an oracle can take the collateral through
   * liquidation, so the loan builders only build for vetted markets.
   */
  listsMarket(id: Hex): boolean
}

export function createAddressBook(options: {
  lending: LendingCatalog
  utilToken: Address | null
}): AddressBook {
  const entries = new Set<string>(
    [
      ...Object.values(BASE_ADDRESSES),
      ...options.lending.aaveReserves,
      ...catalogTokens(options.lending, options.utilToken),
    ].map((a) => getAddress(a)),
  )
  const markets = new Set(options.lending.morphoMarkets.map((id) => id.toLowerCase()))
  return {
    has: (address) => entries.has(getAddress(address)),
    listsMarket: (id) => markets.has(id.toLowerCase()),
  }
}
