import type { Address } from 'viem'
import type { LendingCatalog } from './lendingCatalog.js'
import { TOKENIZED_STOCKS } from './tokenizedStocks.js'

/**
 * The tokens the service lists beyond the network's address book: the catalog's vault shares, the
 * tokenized stocks and UTIL (where it is deployed). The builders' address book and the portfolio's token
 * list both start from these, so the two never disagree on what is listed.
 */
export function catalogTokens(lending: LendingCatalog, utilToken: Address | null): Address[] {
  return [
    ...lending.vaults.map((v) => v.address),
    ...Object.values(TOKENIZED_STOCKS).map((s) => s.token),
    ...(utilToken === null ? [] : [utilToken]),
  ]
}
