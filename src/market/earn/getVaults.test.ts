import type { Address, Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import type { LendingChain, LendingSnapshot, MarketState, SharePriceSample } from '../lendingChain.js'
import { getVaults } from './getVaults.js'

const USDC = { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as Address, symbol: 'USDC', decimals: 6 }
const VAULT = '0x00000000000000000000000000000000000000a1' as Address
const PLAIN = '0x00000000000000000000000000000000000000a2' as Address
const M1 = `0x${'11'.repeat(32)}` as Hex
const M2 = `0x${'22'.repeat(32)}` as Hex
const params = {
  loanToken: USDC.address,
  collateralToken: USDC.address,
  oracle: USDC.address,
  irm: USDC.address,
  lltv: 860000000000000000n,
}
const market: MarketState = {
  totalSupplyAssets: 1_000_000n,
  totalSupplyShares: 1_000_000_000_000n,
  totalBorrowAssets: 500_000n,
  totalBorrowShares: 500_000_000_000n,
  lastUpdate: 0n,
  fee: 0n,
  borrowRate: 1_585_489_599n,
}

/** A snapshot as the chain reader would hand it over: a MetaMorpho vault in M1 and M2, and a plain vault. */
function snapshot(over: { markets?: Hex[]; prices?: boolean } = {}): LendingSnapshot {
  return {
    structure: {
      markets: new Map([
        [M1, { id: M1, params }],
        [M2, { id: M2, params }],
      ]),
      listedMarkets: [],
      vaults: [
        {
          address: VAULT,
          kind: 'metamorpho',
          name: 'v',
          asset: USDC,
          shareDecimals: 18,
          marketIds: [M1, M2],
        },
        { address: PLAIN, kind: 'erc4626', name: 'p', asset: USDC, shareDecimals: 6, marketIds: [] },
      ],
      aaveReserves: [],
      usdUnit: 100_000_000n,
    },
    block: { number: 1000n, timestamp: 1_000_000 },
    markets: new Map((over.markets ?? [M1, M2]).map((id) => [id, market])),
    vaults: new Map([
      [
        VAULT,
        {
          totalAssets: 2_000_000n,
          fee: 0n,
          sharePrice: null,
          supplyShares: new Map([
            [M1, 10n ** 12n],
            [M2, 0n],
          ]),
        },
      ],
      [PLAIN, { totalAssets: 5_000_000n, fee: null, sharePrice: 1_000_000n, supplyShares: new Map() }],
    ]),
    aave: new Map(),
    usdPrices: over.prices === false ? new Map() : new Map([[USDC.address, 100_000_000n]]),
  }
}

function reader(s: LendingSnapshot, history: SharePriceSample | null): LendingChain {
  return {
    structure: async () => s.structure,
    snapshot: async () => s,
    sharePriceHistory: async () => history,
    options: {
      structureTtlMs: 1,
      stateTtlMs: 1,
      historyTtlMs: 1,
      sharePriceWindowBlocks: 10n,
      minSharePriceWindowSec: 86_400,
    },
  }
}

describe('getVaults null rules', () => {
  test('behavior: tvlUsd is null, not 0, when the oracle has no price for the asset', async () => {
    const { vaults } = await getVaults(reader(snapshot({ prices: false }), null))
    expect(vaults.map((v) => v.tvlUsd)).toEqual([null, null])
    const priced = await getVaults(reader(snapshot(), null))
    expect(priced.vaults.map((v) => v.tvlUsd)).toEqual([2, 5])
  })

  test('behavior: a MetaMorpho vault whose funded market cannot be read has a null APY; an empty market does not matter', async () => {
    expect((await getVaults(reader(snapshot(), null))).vaults[0]?.netApy).toBeGreaterThan(0)
    // M2 holds no shares of the vault: its state is not needed.
    expect((await getVaults(reader(snapshot({ markets: [M1] }), null))).vaults[0]?.netApy).toBeGreaterThan(0)
    expect((await getVaults(reader(snapshot({ markets: [M2] }), null))).vaults[0]?.netApy).toBeNull()
  })

  test('behavior: a plain vault without history, or with a window under the minimum, has a null APY', async () => {
    expect((await getVaults(reader(snapshot(), null))).vaults[1]?.netApy).toBeNull()
    const recent = { blockNumber: 990n, timestamp: 1_000_000 - 3600, prices: new Map([[PLAIN, 999_000n]]) }
    expect((await getVaults(reader(snapshot(), recent))).vaults[1]?.netApy).toBeNull()
    const weekAgo = { ...recent, timestamp: 1_000_000 - 7 * 86_400 }
    expect((await getVaults(reader(snapshot(), weekAgo))).vaults[1]?.netApy).toBeGreaterThan(0)
  })
})
