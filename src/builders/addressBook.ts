import { type Address, getAddress } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import type { LendingCatalog } from '../chain/lendingCatalog.js'
import { TOKENIZED_STOCKS } from '../chain/tokenizedStocks.js'

/**
 * The contracts a builder may send a caller to: the network's address book (protocols and tokens), the
 * catalog's vaults, the tokenized stocks and UTIL. A step to anything else is refused, so a caller-supplied
 * address (a vault, a token) can never turn into a call to a contract we have not vetted.
 */
export interface AddressBook {
  has(address: Address): boolean
}

export function createAddressBook(options: {
  lending: LendingCatalog
  utilToken: Address | null
}): AddressBook {
  const entries = new Set<string>(
    [
      ...Object.values(BASE_ADDRESSES),
      ...options.lending.vaults.map((v) => v.address),
      ...options.lending.aaveReserves,
      ...Object.values(TOKENIZED_STOCKS).map((s) => s.token),
      ...(options.utilToken === null ? [] : [options.utilToken]),
    ].map((a) => getAddress(a)),
  )
  return { has: (address) => entries.has(getAddress(address)) }
}
