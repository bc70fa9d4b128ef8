import { describe, expect, test } from 'vitest'
import { screenSpam, type TokenFacts } from './screenSpam.js'

const LISTED = new Set(['USDC', 'WETH', 'CBBTC'])
const unlisted = (symbol: string, name: string | null, priced = false): TokenFacts => ({
  symbol,
  name,
  listed: false,
  priced,
})

describe('screenSpam', () => {
  test('behavior: a listed token is never screened, whatever its name says', () => {
    expect(
      screenSpam({ symbol: 'USDC', name: 'Claim at usdc.com', listed: true, priced: true }, LISTED),
    ).toBe(null)
    expect(screenSpam({ symbol: 'UTIL', name: 'Utility Token', listed: true, priced: false }, LISTED)).toBe(
      null,
    )
  })

  test.each([
    ['URL in the name', 'VISIT', 'Visit https://drop.example to claim'],
    ['bare domain in the symbol', 'usdc-drop.xyz', 'USDC Drop'],
    ['airdrop word', 'AIRDROP', 'Base Airdrop'],
    ['claim word', 'ETHC', 'Claim your ETH'],
    ['reward word', 'RWD', 'Staking Reward Pass'],
    ['$ in the symbol', '$BASE', 'Base Token'],
    ['Cyrillic lookalike', 'USDС', 'USD Coin'],
    ['zero-width character', 'WE\u200bTH', 'Wrapped Ether'],
    ['telegram link', 'TG', 'join t.me/freecoins'],
  ])('attack: %s is a scam-pattern', (_label, symbol, name) => {
    expect(screenSpam(unlisted(symbol, name, true), LISTED)).toBe('scam-pattern')
  })

  test('attack: an unlisted token with a listed symbol is impersonation, even if priced', () => {
    expect(screenSpam(unlisted('USDC', 'USD Coin', true), LISTED)).toBe('impersonation')
    expect(screenSpam(unlisted('weth', 'Wrapped Ether', false), LISTED)).toBe('impersonation')
  })

  test('behavior: an unlisted token without a price source is unlisted-unpriced', () => {
    expect(screenSpam(unlisted('FOO', 'Foo Token'), LISTED)).toBe('unlisted-unpriced')
    expect(screenSpam(unlisted('FOO', null), LISTED)).toBe('unlisted-unpriced')
  })

  test('default: an unlisted, clean-named token with a reliable price is kept', () => {
    expect(screenSpam(unlisted('FOO', 'Foo Token', true), LISTED)).toBe(null)
  })

  test('behavior: words are matched whole, so ordinary names pass', () => {
    // "Claimable" / "Rewarded" are not the bare words; "Coin" holds no domain.
    expect(screenSpam(unlisted('CLM', 'Claimable Yield', true), LISTED)).toBe(null)
    expect(screenSpam(unlisted('COIN', 'Some Coin', true), LISTED)).toBe(null)
  })
})
