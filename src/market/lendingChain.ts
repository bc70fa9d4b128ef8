import { type Address, getAddress, type Hex, type PublicClient, zeroAddress } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import {
  aaveOracleAbi,
  aavePoolReadAbi,
  erc20ReadAbi,
  erc4626ReadAbi,
  metaMorphoReadAbi,
  morphoIrmAbi,
  multicall3BlockAbi,
} from '../chain/lendingAbis.js'
import type { CatalogVaultKind, LendingCatalog } from '../chain/lendingCatalog.js'
import { type MorphoMarketParams, morphoAbi, morphoMarketId } from '../chain/morpho.js'
import { CHAIN_UPSTREAM, multiRead, viewCall } from '../chain/multiRead.js'
import { UpstreamError } from '../errors.js'
import { createTtlCache } from '../ttlCache.js'

/**
 * The chain state behind /v1/earn/vaults and /v1/loan/markets, read from the catalog's contracts with
 * Multicall3 and cached:
 *
 * - structure (STRUCTURE_TTL_MS, 10 min): what rarely changes. Vault assets, names, decimals and market
 *   queues, Aave aTokens, token metadata, Morpho market params (each market id re-derived from its params
 *   and asserted: a mismatch is logged and the market dropped). Three dependent multicalls per refresh.
 * - state (STATE_TTL_MS, 15 s): market totals, vault positions and totals, Aave rates and supplies, USD
 *   prices, in one multicall at the latest block; then the IRMs' borrowRateView for those market states in
 *   a second one pinned to the same block (the rate is a function of the state just read, so it cannot sit
 *   in the first).
 * - share-price history (HISTORY_TTL_MS, 10 min): plain ERC-4626 share prices at the block
 *   `sharePriceWindowBlocks` before the head (7 days of 2-s Base blocks by default); null when the chain is
 *   younger than that or the RPC keeps no state that old (a non-archive node).
 *
 * Concurrent identical reads share one load; failures are not cached. A fault of the RPC is an
 * UpstreamError (502 with Retry-After, nothing charged); a single catalog entry that cannot be read is
 * dropped with a warning instead of failing the whole list.
 */
export interface LendingChain {
  /** The catalog's tokens, vault assets, Aave aTokens and verified market params (immutable; cached). */
  structure(): Promise<LendingStructure>
  snapshot(): Promise<LendingSnapshot>
  /** Plain ERC-4626 share prices `sharePriceWindowBlocks` before `headBlock`; null when unavailable. */
  sharePriceHistory(headBlock: bigint): Promise<SharePriceSample | null>
  readonly options: Readonly<LendingChainOptions>
}

export const STRUCTURE_TTL_MS = 600_000
export const STATE_TTL_MS = 15_000
export const HISTORY_TTL_MS = 600_000
/** 7 days of Base blocks (2 s each). */
export const SHARE_PRICE_WINDOW_BLOCKS = 302_400n
/** A share-price window shorter than a day is not annualized (too noisy): APY null. */
export const MIN_SHARE_PRICE_WINDOW_SEC = 86_400

export interface LendingChainOptions {
  structureTtlMs: number
  stateTtlMs: number
  historyTtlMs: number
  sharePriceWindowBlocks: bigint
  minSharePriceWindowSec: number
}

/** Where dropped catalog entries are reported (the service's logger). */
export interface WarnLog {
  warn(fields: Record<string, unknown>): void
}

export interface TokenMeta {
  address: Address
  symbol: string
  decimals: number
}

export interface MarketInfo {
  /** Lowercase hex. */
  id: Hex
  params: MorphoMarketParams
}

export interface VaultInfo {
  address: Address
  kind: CatalogVaultKind
  name: string
  asset: TokenMeta
  shareDecimals: number
  /** MetaMorpho: the markets of its withdraw queue (every market it may hold assets in); else empty. */
  marketIds: Hex[]
}

export interface AaveReserveInfo {
  asset: TokenMeta
  aToken: Address
  /** The reserve's variable-debt token (what a borrower's debt is a balance of). */
  variableDebtToken: Address
  name: string
}

export interface LendingStructure {
  /** Every market read: the listed ones and those the vaults allocate to, each id verified. */
  markets: ReadonlyMap<Hex, MarketInfo>
  /** Catalog markets that verified, in catalog order, with their tokens. */
  listedMarkets: { id: Hex; loanAsset: TokenMeta; collateralAsset: TokenMeta | null }[]
  vaults: VaultInfo[]
  aaveReserves: AaveReserveInfo[]
  /** AaveOracle's unit when it quotes USD (BASE_CURRENCY = address(0)); null otherwise. */
  usdUnit: bigint | null
}

export interface MarketState {
  totalSupplyAssets: bigint
  totalSupplyShares: bigint
  totalBorrowAssets: bigint
  totalBorrowShares: bigint
  lastUpdate: bigint
  /** WAD share of the interest taken by the protocol. */
  fee: bigint
  /** Per-second borrow rate (WAD) from the IRM for this state; 0 for a market without IRM (no interest). */
  borrowRate: bigint
}

export interface VaultState {
  totalAssets: bigint
  /** MetaMorpho fee (WAD share of interest); null for other vaults. */
  fee: bigint | null
  /** Plain ERC-4626: assets that `sharePriceProbe(shareDecimals)` shares convert to; else null. */
  sharePrice: bigint | null
  /** MetaMorpho: supply shares per market of its queue. */
  supplyShares: ReadonlyMap<Hex, bigint>
}

export interface AaveReserveState {
  /** currentLiquidityRate: ray APR paid to suppliers. */
  liquidityRate: bigint
  /** aToken totalSupply: supplied assets with the interest accrued up to the block. */
  totalSupply: bigint
}

export interface LendingSnapshot {
  structure: LendingStructure
  block: { number: bigint; timestamp: number }
  /** Markets whose state and rate could be read. */
  markets: ReadonlyMap<Hex, MarketState>
  vaults: ReadonlyMap<Address, VaultState>
  aave: ReadonlyMap<Address, AaveReserveState>
  /** AaveOracle USD prices by asset (scaled by structure.usdUnit); absent where the oracle has none. */
  usdPrices: ReadonlyMap<Address, bigint>
}

export interface SharePriceSample {
  blockNumber: bigint
  timestamp: number
  prices: ReadonlyMap<Address, bigint>
}

/** Every live figure of the lending structure in one multicall, at one block, with the lists it was read for. */
async function readLive(chain: PublicClient, structure: LendingStructure, marketIds: `0x${string}`[]) {
  const positions = structure.vaults.flatMap((v) => v.marketIds.map((id) => ({ vault: v.address, id })))
  const metaMorphos = structure.vaults.filter((v) => v.kind === 'metamorpho')
  const plain = structure.vaults.filter((v) => v.kind === 'erc4626')
  const priced = [
    ...new Set([
      ...structure.vaults.map((v) => v.asset.address),
      ...structure.aaveReserves.map((r) => r.asset.address),
    ]),
  ]
  const live = await multiRead(chain, {
    blockNumber: [viewCall(BASE_ADDRESSES.Multicall3, multicall3BlockAbi, 'getBlockNumber', [])],
    timestamp: [viewCall(BASE_ADDRESSES.Multicall3, multicall3BlockAbi, 'getCurrentBlockTimestamp', [])],
    market: marketIds.map((id) => viewCall(MORPHO, morphoAbi, 'market', [id])),
    position: positions.map((p) => viewCall(MORPHO, morphoAbi, 'position', [p.id, p.vault])),
    totalAssets: structure.vaults.map((v) => viewCall(v.address, erc4626ReadAbi, 'totalAssets', [])),
    fee: metaMorphos.map((v) => viewCall(v.address, metaMorphoReadAbi, 'fee', [])),
    sharePrice: plain.map((v) =>
      viewCall(v.address, erc4626ReadAbi, 'convertToAssets', [sharePriceProbe(v.shareDecimals)]),
    ),
    reserve: structure.aaveReserves.map((r) =>
      viewCall(BASE_ADDRESSES.AavePool, aavePoolReadAbi, 'getReserveData', [r.asset.address]),
    ),
    aTokenSupply: structure.aaveReserves.map((r) => viewCall(r.aToken, erc20ReadAbi, 'totalSupply', [])),
    price:
      structure.usdUnit === null
        ? []
        : priced.map((asset) => viewCall(BASE_ADDRESSES.AaveOracle, aaveOracleAbi, 'getAssetPrice', [asset])),
  })
  return { live, positions, metaMorphos, plain, priced }
}

/** Share amount whose asset value is sampled: a million whole shares, so rounding stays far below 1e-9. */
export function sharePriceProbe(shareDecimals: number): bigint {
  return 10n ** BigInt(shareDecimals + 6)
}

export function createLendingChain(
  chain: PublicClient,
  catalog: LendingCatalog,
  log: WarnLog,
  overrides: Partial<LendingChainOptions> = {},
  now: () => number = Date.now,
): LendingChain {
  const options: LendingChainOptions = {
    structureTtlMs: STRUCTURE_TTL_MS,
    stateTtlMs: STATE_TTL_MS,
    historyTtlMs: HISTORY_TTL_MS,
    sharePriceWindowBlocks: SHARE_PRICE_WINDOW_BLOCKS,
    minSharePriceWindowSec: MIN_SHARE_PRICE_WINDOW_SEC,
    ...overrides,
  }
  const structures = createTtlCache<LendingStructure>(options.structureTtlMs, now, 1)
  const snapshots = createTtlCache<LendingSnapshot>(options.stateTtlMs, now, 1)
  const histories = createTtlCache<SharePriceSample | null>(options.historyTtlMs, now, 1)
  const structure = () => structures.get('structure', () => readStructure(chain, catalog, log))
  return {
    options,
    structure,
    snapshot: () => snapshots.get('state', async () => readState(chain, await structure(), log)),
    sharePriceHistory: (headBlock) =>
      histories.get('history', async () => {
        const vaults = (await structure()).vaults.filter((v) => v.kind === 'erc4626')
        const at = headBlock - options.sharePriceWindowBlocks
        if (vaults.length === 0 || at < 1n) return null
        return readSharePrices(chain, vaults, at).catch((err: unknown) => {
          log.warn({ msg: 'share-price history unavailable (RPC without that block state)', block: at, err })
          return null
        })
      }),
  }
}

const MORPHO = BASE_ADDRESSES.MorphoBlue
const lower = (id: Hex) => id.toLowerCase() as Hex

async function readStructure(
  chain: PublicClient,
  catalog: LendingCatalog,
  log: WarnLog,
): Promise<LendingStructure> {
  const vaults = catalog.vaults
  const metaMorphos = vaults.filter((v) => v.kind === 'metamorpho')
  const catalogIds = [...new Set(catalog.morphoMarkets.map(lower))]
  const first = await multiRead(chain, {
    asset: vaults.map((v) => viewCall(v.address, erc4626ReadAbi, 'asset', [])),
    name: vaults.map((v) => viewCall(v.address, erc4626ReadAbi, 'name', [])),
    shareDecimals: vaults.map((v) => viewCall(v.address, erc4626ReadAbi, 'decimals', [])),
    queueLength: metaMorphos.map((v) => viewCall(v.address, metaMorphoReadAbi, 'withdrawQueueLength', [])),
    reserve: catalog.aaveReserves.map((a) =>
      viewCall(BASE_ADDRESSES.AavePool, aavePoolReadAbi, 'getReserveData', [a]),
    ),
    baseCurrency: [viewCall(BASE_ADDRESSES.AaveOracle, aaveOracleAbi, 'BASE_CURRENCY', [])],
    baseUnit: [viewCall(BASE_ADDRESSES.AaveOracle, aaveOracleAbi, 'BASE_CURRENCY_UNIT', [])],
    params: catalogIds.map((id) => viewCall(MORPHO, morphoAbi, 'idToMarketParams', [id])),
  })

  const queueCalls = metaMorphos.map((v, i) => {
    const length = Number(first.queueLength[i] ?? 0n)
    return Array.from({ length }, (_, k) =>
      viewCall(v.address, metaMorphoReadAbi, 'withdrawQueue', [BigInt(k)]),
    )
  })
  const aTokens = catalog.aaveReserves.map((_, i) => first.reserve[i]?.aTokenAddress)
  const tokens = [
    ...new Set(
      [
        ...first.asset,
        ...catalog.aaveReserves,
        ...first.params.flatMap((p) => (p === undefined ? [] : [p[0], p[1]])),
      ].filter((a): a is Address => a !== undefined && a !== zeroAddress),
    ),
  ]
  const second = await multiRead(chain, {
    queue: queueCalls.flat(),
    aTokenName: aTokens.map((a) => viewCall(a ?? zeroAddress, erc20ReadAbi, 'name', [])),
    symbol: tokens.map((t) => viewCall(t, erc20ReadAbi, 'symbol', [])),
    decimals: tokens.map((t) => viewCall(t, erc20ReadAbi, 'decimals', [])),
  })
  const tokenMeta = new Map<Address, TokenMeta>()
  tokens.forEach((address, i) => {
    const symbol = second.symbol[i]
    const decimals = second.decimals[i]
    if (symbol !== undefined && decimals !== undefined) tokenMeta.set(address, { address, symbol, decimals })
  })

  // Markets: the catalog's, plus those the vaults' queues name.
  const markets = new Map<Hex, MarketInfo>()
  const verify = (id: Hex, raw: readonly [Address, Address, Address, Address, bigint] | undefined) => {
    if (raw === undefined) {
      log.warn({ msg: 'morpho market dropped: idToMarketParams unreadable', marketId: id })
      return
    }
    const params: MorphoMarketParams = {
      loanToken: raw[0],
      collateralToken: raw[1],
      oracle: raw[2],
      irm: raw[3],
      lltv: raw[4],
    }
    const derived = morphoMarketId(params)
    if (lower(derived) !== id) {
      // Never served: an id that does not hash back to its params is a market that does not exist (all-zero
      // params) or a chain answer that cannot be trusted.
      log.warn({ msg: 'morpho market dropped: id does not re-derive from its params', marketId: id, derived })
      return
    }
    markets.set(id, { id, params })
  }
  catalogIds.forEach((id, i) => {
    verify(id, first.params[i])
  })

  const vaultQueues: Hex[][] = []
  let at = 0
  for (const calls of queueCalls) {
    const ids = second.queue.slice(at, at + calls.length)
    at += calls.length
    vaultQueues.push(ids.filter((id): id is Hex => id !== undefined).map(lower))
  }
  const extraIds = [...new Set(vaultQueues.flat())].filter(
    (id) => !markets.has(id) && !catalogIds.includes(id),
  )
  if (extraIds.length > 0) {
    const third = await multiRead(chain, {
      params: extraIds.map((id) => viewCall(MORPHO, morphoAbi, 'idToMarketParams', [id])),
    })
    extraIds.forEach((id, i) => {
      verify(id, third.params[i])
    })
  }

  const vaultInfos: VaultInfo[] = []
  vaults.forEach((v, i) => {
    const assetAddress = first.asset[i]
    const asset = assetAddress === undefined ? undefined : tokenMeta.get(assetAddress)
    const name = first.name[i]
    const shareDecimals = first.shareDecimals[i]
    const queueIndex = metaMorphos.indexOf(v)
    const queueComplete =
      queueIndex === -1 ||
      (first.queueLength[queueIndex] !== undefined &&
        vaultQueues[queueIndex]?.length === queueCalls[queueIndex]?.length)
    if (asset === undefined || name === undefined || shareDecimals === undefined || !queueComplete) {
      log.warn({
        msg: 'vault dropped: its ERC-4626 metadata or market queue is unreadable',
        vault: v.address,
      })
      return
    }
    vaultInfos.push({
      address: getAddress(v.address),
      kind: v.kind,
      name,
      asset,
      shareDecimals,
      marketIds: queueIndex === -1 ? [] : (vaultQueues[queueIndex] ?? []),
    })
  })

  const aaveReserves: AaveReserveInfo[] = []
  catalog.aaveReserves.forEach((assetAddress, i) => {
    const asset = tokenMeta.get(getAddress(assetAddress))
    const aToken = aTokens[i]
    const name = second.aTokenName[i]
    if (asset === undefined || aToken === undefined || aToken === zeroAddress || name === undefined) {
      log.warn({
        msg: 'aave reserve dropped: not listed on the pool or its tokens are unreadable',
        asset: assetAddress,
      })
      return
    }
    const variableDebtToken = first.reserve[i]?.variableDebtTokenAddress ?? zeroAddress
    aaveReserves.push({ asset, aToken, variableDebtToken, name })
  })

  const listedMarkets: LendingStructure['listedMarkets'] = []
  for (const id of catalogIds) {
    const market = markets.get(id)
    if (market === undefined) continue
    const loanAsset = tokenMeta.get(market.params.loanToken)
    const collateral = market.params.collateralToken
    const collateralAsset = collateral === zeroAddress ? null : tokenMeta.get(collateral)
    if (loanAsset === undefined || collateralAsset === undefined) {
      log.warn({ msg: 'morpho market dropped: its tokens are unreadable', marketId: id })
      continue
    }
    listedMarkets.push({ id, loanAsset, collateralAsset })
  }

  const baseCurrency = first.baseCurrency[0]
  const baseUnit = first.baseUnit[0]
  const usdUnit = baseCurrency === zeroAddress && baseUnit !== undefined && baseUnit > 0n ? baseUnit : null
  return { markets, listedMarkets, vaults: vaultInfos, aaveReserves, usdUnit }
}

async function readState(
  chain: PublicClient,
  structure: LendingStructure,
  log: WarnLog,
): Promise<LendingSnapshot> {
  const marketIds = [...structure.markets.keys()]
  const { live, positions, metaMorphos, plain, priced } = await readLive(chain, structure, marketIds)
  const blockNumber = live.blockNumber[0]
  const timestamp = live.timestamp[0]
  if (blockNumber === undefined || timestamp === undefined) {
    throw new UpstreamError(CHAIN_UPSTREAM, 'Multicall3 did not report the block')
  }

  // Rates for exactly the states just read, at the same block.
  const states = marketIds.flatMap((id, i) => {
    const raw = live.market[i]
    const info = structure.markets.get(id)
    if (raw === undefined || info === undefined) {
      log.warn({ msg: 'morpho market skipped: market() unreadable', marketId: id })
      return []
    }
    const [totalSupplyAssets, totalSupplyShares, totalBorrowAssets, totalBorrowShares, lastUpdate, fee] = raw
    const market = {
      totalSupplyAssets,
      totalSupplyShares,
      totalBorrowAssets,
      totalBorrowShares,
      lastUpdate,
      fee,
    }
    return [{ id, params: info.params, market }]
  })
  const withIrm = states.filter((s) => s.params.irm !== zeroAddress)
  const rates = await multiRead(
    chain,
    {
      rate: withIrm.map((s) => viewCall(s.params.irm, morphoIrmAbi, 'borrowRateView', [s.params, s.market])),
    },
    blockNumber,
  )
  const rateOf = new Map(withIrm.map((s, i) => [s.id, rates.rate[i]]))
  const markets = new Map<Hex, MarketState>()
  for (const s of states) {
    // Morpho accrues no interest in a market without IRM: its rate is a true 0.
    const borrowRate = s.params.irm === zeroAddress ? 0n : rateOf.get(s.id)
    if (borrowRate === undefined) {
      log.warn({ msg: 'morpho market skipped: borrowRateView unreadable', marketId: s.id })
      continue
    }
    markets.set(s.id, { ...s.market, borrowRate })
  }

  const supplyShares = new Map<Address, Map<Hex, bigint>>()
  const incomplete = new Set<Address>()
  positions.forEach((p, i) => {
    const position = live.position[i]
    if (position === undefined) {
      incomplete.add(p.vault)
      return
    }
    const byMarket = supplyShares.get(p.vault) ?? new Map<Hex, bigint>()
    byMarket.set(p.id, position[0])
    supplyShares.set(p.vault, byMarket)
  })
  const vaults = new Map<Address, VaultState>()
  structure.vaults.forEach((v, i) => {
    const totalAssets = live.totalAssets[i]
    const fee = v.kind === 'metamorpho' ? live.fee[metaMorphos.indexOf(v)] : null
    const sharePrice = v.kind === 'erc4626' ? live.sharePrice[plain.indexOf(v)] : null
    if (
      totalAssets === undefined ||
      fee === undefined ||
      sharePrice === undefined ||
      incomplete.has(v.address)
    ) {
      log.warn({ msg: 'vault skipped: its state is unreadable', vault: v.address })
      return
    }
    vaults.set(v.address, {
      totalAssets,
      fee,
      sharePrice,
      supplyShares: supplyShares.get(v.address) ?? new Map(),
    })
  })

  const aave = new Map<Address, AaveReserveState>()
  structure.aaveReserves.forEach((r, i) => {
    const reserve = live.reserve[i]
    const totalSupply = live.aTokenSupply[i]
    if (reserve === undefined || totalSupply === undefined) {
      log.warn({ msg: 'aave reserve skipped: its state is unreadable', asset: r.asset.address })
      return
    }
    aave.set(r.asset.address, { liquidityRate: reserve.currentLiquidityRate, totalSupply })
  })

  const usdPrices = new Map<Address, bigint>()
  priced.forEach((asset, i) => {
    const price = live.price[i]
    if (price !== undefined && price > 0n) usdPrices.set(asset, price)
  })
  return {
    structure,
    block: { number: blockNumber, timestamp: Number(timestamp) },
    markets,
    vaults,
    aave,
    usdPrices,
  }
}

async function readSharePrices(
  chain: PublicClient,
  vaults: readonly VaultInfo[],
  blockNumber: bigint,
): Promise<SharePriceSample> {
  const past = await multiRead(
    chain,
    {
      timestamp: [viewCall(BASE_ADDRESSES.Multicall3, multicall3BlockAbi, 'getCurrentBlockTimestamp', [])],
      sharePrice: vaults.map((v) =>
        viewCall(v.address, erc4626ReadAbi, 'convertToAssets', [sharePriceProbe(v.shareDecimals)]),
      ),
    },
    blockNumber,
  )
  const timestamp = past.timestamp[0]
  if (timestamp === undefined) throw new UpstreamError(CHAIN_UPSTREAM, 'Multicall3 did not report the block')
  const prices = new Map<Address, bigint>()
  vaults.forEach((v, i) => {
    const price = past.sharePrice[i]
    if (price !== undefined) prices.set(v.address, price)
  })
  return { blockNumber, timestamp: Number(timestamp), prices }
}
