import type { Address, Hex } from 'viem'
import {
  aaveRateToApy,
  type MarketAllocation,
  metaMorphoApy,
  morphoRateToApy,
  morphoSupplyApy,
  morphoSupplyAssets,
  sharePriceApy,
  utilization,
} from '../analytics/lendingApy.js'
import { fromWad } from '../chain/units.js'
import type { LendingChain, LendingSnapshot, SharePriceSample, TokenMeta, VaultInfo } from './lendingChain.js'
import { fromAtomic, round, significant } from './numbers.js'

/** How a vault's netApy is obtained. */
export type VaultApySource = 'morpho-allocation' | 'share-price-growth' | 'aave-liquidity-rate'

export interface VaultAllocation {
  marketId: Hex
  /** Supply assets in the market (vault asset, atomic), decimal string. */
  assets: string
  /** The market's supply APY: borrow APY × utilization × (1 − market fee). */
  supplyApy: number
}

export interface Vault {
  /** The ERC-4626 vault; for an Aave reserve, its aToken (the receipt token the deposit mints). */
  address: Address
  kind: 'erc4626' | 'pool-lender'
  protocol: 'metamorpho' | 'erc4626' | 'aave-v3'
  name: string
  asset: TokenMeta
  /** Yearly yield after the vault's own fee, as a fraction (0.05 = 5%); null when it cannot be derived. */
  netApy: number | null
  apySource: VaultApySource
  /** The vault's fee as a share of interest (MetaMorpho); null where the vault has none onchain. */
  fee: number | null
  /** Assets held (atomic, decimal string): totalAssets(), or the aToken's totalSupply() for Aave. */
  tvl: string
  /** tvl in USD at Aave's oracle price for the asset; null when that oracle does not price it. */
  tvlUsd: number | null
  /** MetaMorpho: assets and supply APY per market it holds assets in; empty otherwise. */
  allocation: VaultAllocation[]
}

export interface Vaults {
  /** The block every value was read at. */
  block: { number: number; timestamp: number }
  vaults: Vault[]
}

/**
 * The catalog's vaults with live APY and TVL, from one chain snapshot (see LendingChain): MetaMorpho vaults
 * from their Morpho Blue allocation, plain ERC-4626 vaults from share-price growth over the history window,
 * Aave v3 reserves from currentLiquidityRate. Formulas in analytics/lendingApy.ts.
 */
export async function getVaults(lending: LendingChain): Promise<Vaults> {
  const snapshot = await lending.snapshot()
  const { structure } = snapshot
  const needsHistory = structure.vaults.some((v) => v.kind === 'erc4626')
  const history = needsHistory ? await lending.sharePriceHistory(snapshot.block.number) : null
  const vaults: Vault[] = []
  for (const info of structure.vaults) {
    const vault = erc4626Vault(info, snapshot, history, lending.options.minSharePriceWindowSec)
    if (vault !== null) vaults.push(vault)
  }
  for (const reserve of structure.aaveReserves) {
    const state = snapshot.aave.get(reserve.asset.address)
    if (state === undefined) continue
    vaults.push({
      address: reserve.aToken,
      kind: 'pool-lender',
      protocol: 'aave-v3',
      name: reserve.name,
      asset: reserve.asset,
      netApy: significant(aaveRateToApy(state.liquidityRate)),
      apySource: 'aave-liquidity-rate',
      fee: null,
      tvl: state.totalSupply.toString(),
      tvlUsd: usdValue(snapshot, reserve.asset, state.totalSupply),
      allocation: [],
    })
  }
  return { block: { number: Number(snapshot.block.number), timestamp: snapshot.block.timestamp }, vaults }
}

function erc4626Vault(
  info: VaultInfo,
  snapshot: LendingSnapshot,
  history: SharePriceSample | null,
  minWindowSec: number,
): Vault | null {
  const state = snapshot.vaults.get(info.address)
  if (state === undefined) return null
  const tvl = { tvl: state.totalAssets.toString(), tvlUsd: usdValue(snapshot, info.asset, state.totalAssets) }
  const head = { address: info.address, kind: 'erc4626' as const, name: info.name, asset: info.asset }
  if (info.kind === 'erc4626') {
    const past = history?.prices.get(info.address)
    const apy =
      history === null || past === undefined || state.sharePrice === null
        ? null
        : sharePriceApy(past, state.sharePrice, snapshot.block.timestamp - history.timestamp, minWindowSec)
    return {
      ...head,
      protocol: 'erc4626',
      netApy: apy === null ? null : significant(apy),
      apySource: 'share-price-growth',
      fee: null,
      ...tvl,
      allocation: [],
    }
  }

  // MetaMorpho: every market of its queue where it has supply shares must be readable, else no APY.
  const allocation: VaultAllocation[] = []
  const weights: MarketAllocation[] = []
  let complete = true
  for (const id of info.marketIds) {
    const shares = state.supplyShares.get(id) ?? 0n
    if (shares === 0n) continue
    const market = snapshot.markets.get(id)
    if (market === undefined) {
      complete = false
      continue
    }
    const assets = morphoSupplyAssets(shares, market.totalSupplyAssets, market.totalSupplyShares)
    const supplyApy = morphoSupplyApy(
      morphoRateToApy(market.borrowRate),
      utilization(market.totalBorrowAssets, market.totalSupplyAssets),
      market.fee,
    )
    weights.push({ assets, supplyApy })
    allocation.push({ marketId: id, assets: assets.toString(), supplyApy: significant(supplyApy) })
  }
  const fee = state.fee ?? 0n
  const apy = complete ? metaMorphoApy(weights, fee) : null
  return {
    ...head,
    protocol: 'metamorpho',
    netApy: apy === null ? null : significant(apy.netApy),
    apySource: 'morpho-allocation',
    fee: fromWad(fee),
    ...tvl,
    allocation,
  }
}

function usdValue(snapshot: LendingSnapshot, asset: TokenMeta, amount: bigint): number | null {
  const price = snapshot.usdPrices.get(asset.address)
  const unit = snapshot.structure.usdUnit
  if (price === undefined || unit === null) return null
  return round(fromAtomic(amount, asset.decimals) * (Number(price) / Number(unit)), 2)
}
