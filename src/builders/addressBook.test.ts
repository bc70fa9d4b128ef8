import { describe, expect, test } from 'vitest'
import { BASE_ADDRESSES, DEVNET_UTIL_TOKEN } from '../chain/addresses.js'
import { BASE_LENDING_CATALOG } from '../chain/lendingCatalog.js'
import { TOKENIZED_STOCKS } from '../chain/tokenizedStocks.js'
import { createAddressBook } from './addressBook.js'

describe('createAddressBook', () => {
  const book = createAddressBook({ lending: BASE_LENDING_CATALOG, utilToken: DEVNET_UTIL_TOKEN })

  test('behavior: protocols, catalog vaults, stock tokens and UTIL are in, in any letter case', () => {
    expect(book.has(BASE_ADDRESSES.MorphoBlue)).toBe(true)
    expect(book.has(BASE_ADDRESSES.AavePool.toLowerCase() as `0x${string}`)).toBe(true)
    expect(book.has(BASE_LENDING_CATALOG.vaults[0]?.address ?? '0x')).toBe(true)
    expect(book.has(TOKENIZED_STOCKS.NVDAc.token)).toBe(true)
    expect(book.has(DEVNET_UTIL_TOKEN)).toBe(true)
    const [market] = BASE_LENDING_CATALOG.morphoMarkets
    expect(book.listsMarket((market ?? '0x').toUpperCase().replace('0X', '0x') as `0x${string}`)).toBe(true)
    expect(book.listsMarket(`0x${'11'.repeat(32)}`)).toBe(false)
  })

  test('error: anything else is out, and UTIL only where it is deployed', () => {
    expect(book.has('0x000000000000000000000000000000000000dEaD')).toBe(false)
    expect(book.has('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBe(false)
    const noUtil = createAddressBook({ lending: BASE_LENDING_CATALOG, utilToken: null })
    expect(noUtil.has(DEVNET_UTIL_TOKEN)).toBe(false)
  })
})
