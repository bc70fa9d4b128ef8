import { describe, expect, test } from 'vitest'
import { type MidnightMarket, midnightMarketId } from './midnight.js'

// A devnet market and the id the Midnight stand-in's Solidity `toId` gave it (protocols.md §7a formula).
const market: MidnightMarket = {
  chainId: 8453n,
  midnight: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
  loanToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  collateralParams: [
    {
      token: '0x4200000000000000000000000000000000000006',
      lltv: 860_000_000_000_000_000n,
      liquidationCursor: 300_000_000_000_000_000n,
      oracle: '0xdE7E000000000000000000000000000000000020',
    },
    {
      token: '0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf',
      lltv: 860_000_000_000_000_000n,
      liquidationCursor: 300_000_000_000_000_000n,
      oracle: '0xde7E000000000000000000000000000000000021',
    },
  ],
  maturity: 1_797_984_000n,
  rcfThreshold: 0n,
  enterGate: '0x0000000000000000000000000000000000000000',
  liquidatorGate: '0x0000000000000000000000000000000000000000',
}
const ID = '0x1ee49f8168cda1129ff8b501decd41128abaff90c55a18ca3fbc3fc8d47d2d34'

describe('midnightMarketId', () => {
  test('behavior: matches the id Solidity derives; collaterals hash in token order', () => {
    expect(midnightMarketId(market)).toBe(ID)
    expect(midnightMarketId({ ...market, collateralParams: [...market.collateralParams].reverse() })).toBe(ID)
  })

  test('behavior: every parameter is part of the id', () => {
    const changed: MidnightMarket[] = [
      { ...market, maturity: market.maturity + 1n },
      { ...market, rcfThreshold: 1n },
      { ...market, chainId: 1n },
      { ...market, collateralParams: market.collateralParams.slice(1) },
      {
        ...market,
        collateralParams: market.collateralParams.map((c, i) => (i === 0 ? { ...c, lltv: c.lltv - 1n } : c)),
      },
    ]
    for (const m of changed) expect(midnightMarketId(m)).not.toBe(ID)
  })
})
