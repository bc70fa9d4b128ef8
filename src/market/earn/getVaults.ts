import { z } from 'zod'
import {
  aaveRateToApy,
  type MarketAllocation,
  metaMorphoApy,
  morphoRateToApy,
  morphoSupplyApy,
  morphoSupplyAssets,
  sharePriceApy,
  utilization,
} from '../../analytics/lendingApy.js'
import { address, atomicAmount, marketId } from '../../chain/fields.js'
import { fromWad } from '../../chain/units.js'
import type {
  LendingChain,
  LendingSnapshot,
  SharePriceSample,
  TokenMeta,
  VaultInfo,
} from '../lendingChain.js'
import { fromAtomic, round, significant } from '../numbers.js'
import { readAt, tokenRef, usdOrNull, yearlyFraction } from '../readFields.js'

/** What the read answers (the route's output schema). */
export const vaultsOutput = z.object({
  block: readAt,
  vaults: z.array(
    z.object({
      address: address.describe('The ERC-4626 vault, or the aToken of an Aave reserve'),
      kind: z.enum(['erc4626', 'pool-lender']),
      protocol: z.enum(['metamorpho', 'erc4626', 'aave-v3']),
      name: z.string(),
      asset: tokenRef.describe('The underlying asset deposited'),
      netApy: yearlyFraction('Net APY after the vault’s fee')
        .nullable()
        .describe('Net APY after the vault’s fee, a yearly fraction; null when it cannot be derived'),
      apySource: z
        .enum(['morpho-allocation', 'share-price-growth', 'aave-liquidity-rate'])
        .describe('How netApy is derived (see the description)'),
      fee: z
        .number()
        .nullable()
        .describe('Vault fee as a share of interest (MetaMorpho); null when none onchain'),
      tvl: atomicAmount.describe('Assets held, atomic units of the asset'),
      tvlUsd: usdOrNull,
      allocation: z
        .array(
          z.object({
            marketId,
            assets: atomicAmount.describe('Supply assets in this market, atomic'),
            supplyApy: yearlyFraction('The market’s supply APY'),
          }),
        )
        .describe('MetaMorpho: each Morpho Blue market it holds assets in; empty otherwise'),
    }),
  ),
})

export type VaultApySource = Vault['apySource']
export type VaultAllocation = Vault['allocation'][number]
export type Vault = Vaults['vaults'][number]
export type Vaults = z.output<typeof vaultsOutput>

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
