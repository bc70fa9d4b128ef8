import { type Address, erc20Abi, type Hex, type PublicClient } from 'viem'
import { accruedBorrowAssets } from '../analytics/accruedBorrowAssets.js'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { aaveOracleAbi, aavePoolReadAbi, morphoIrmAbi, multicall3BlockAbi } from '../chain/lendingAbis.js'
import { type MorphoMarketParams, morphoAbi } from '../chain/morpho.js'
import { CHAIN_UPSTREAM, multiRead, viewCall } from '../chain/multiRead.js'
import { aaveAccountAbi, morphoOracleAbi, shareBalanceAbi } from '../chain/walletAbis.js'
import { UpstreamError } from '../errors.js'
import type { LendingChain, TokenMeta, VaultInfo } from './lendingChain.js'

const MORPHO = BASE_ADDRESSES.MorphoBlue

/** One Morpho Blue borrow of the owner, its debt accrued to `LendingPositions.at`. */
export interface MorphoBorrow {
  marketId: Hex
  params: MorphoMarketParams
  loanToken: TokenMeta
  collateralToken: TokenMeta
  /** Collateral supplied (collateral atomic units). */
  collateral: bigint
  borrowShares: bigint
  /** Loan-token atomic units owed at `at`: shares × accrued totals, rounded up (what a full repay costs). */
  debt: bigint
  /** The market oracle's price (loan atomic per collateral atomic × 1e36); null when the oracle reverts. */
  oraclePrice: bigint | null
  /** Per-second borrow rate (WAD) the IRM gives for the stored market state at `at`. */
  borrowRate: bigint
}

/** A catalog vault the owner holds shares of (MetaMorpho, plain ERC-4626, or an Aave reserve's aToken). */
export interface VaultHolding {
  /** The vault, or the aToken for Aave. */
  address: Address
  protocol: 'metamorpho' | 'erc4626' | 'aave-v3'
  asset: TokenMeta
  /** Vault shares (for Aave: the aToken balance, which is already in assets). */
  shares: bigint
  /** `convertToAssets(shares)` at `at` (Aave: the aToken balance at `at`). */
  assets: bigint
}

/** Aave v3 for one account: Pool.getUserAccountData (base currency = USD, 8 decimals) and per reserve. */
export interface AaveAccount {
  totalCollateralBase: bigint
  totalDebtBase: bigint
  availableBorrowsBase: bigint
  /** Weighted liquidation threshold, basis points. */
  liquidationThresholdBps: bigint
  ltvBps: bigint
  /** WAD; Aave reports max uint256 with no debt. */
  healthFactor: bigint
  /** AaveOracle's unit (1e8 for USD); null when the oracle does not quote USD. */
  baseUnit: bigint | null
  reserves: {
    asset: TokenMeta
    aToken: Address
    supplied: bigint
    borrowed: bigint
    /** AaveOracle price of one whole asset in base units; null when it has none. */
    price: bigint | null
    /** currentVariableBorrowRate: ray (1e27) APR; null when getReserveData reverts. */
    variableBorrowRate: bigint | null
  }[]
}

/** Which part of the lending read failed (a reverted call, a missing oracle). Absent = ok. */
export type LendingFailures = Partial<Record<'morpho' | 'vaults' | 'aave', string>>

export interface LendingPositions {
  block: { number: bigint; timestamp: number }
  /** Unix seconds every time-dependent value is projected to: the later of the block's time and now. */
  at: number
  morpho: MorphoBorrow[]
  vaults: VaultHolding[]
  /** Null when the account has neither supplied nor borrowed on Aave. */
  aave: AaveAccount | null
  failures: LendingFailures
}

/**
 * The owner's positions in the catalog's lending venues, live, in two multicalls:
 *
 * 1. at `block` (the answer cache's head; else the latest): Morpho Blue `position` + `market` + oracle `price()` for every catalog market, and
 *    `balanceOf(owner)` of every catalog vault;
 * 2. pinned to that block with block.timestamp overridden to `at` = max(block time, now): the IRM's
 *    `borrowRateView` for the markets the owner borrows in (AdaptiveCurveIrm averages its rate to `at`),
 *    `convertToAssets` of the shares held (MetaMorpho's totalAssets accrues to `at`), and Aave's
 *    `getUserAccountData`, aToken and variable-debt balances and oracle prices (Aave indexes accrue to `at`).
 *
 * So debts and deposits include the interest accrued up to now, not only to the last onchain touch. Morpho
 * debt is `accruedBorrowAssets` (Morpho's own accrual, replayed). Only the catalog's markets, vaults and
 * reserves are read (what /v1/loan/markets and /v1/earn/vaults list): a position elsewhere is not found.
 * The catalog structure (tokens, market params) is the LendingChain's 10-minute cache.
 */
export async function readLendingPositions(
  lending: LendingChain,
  chain: PublicClient,
  owner: Address,
  nowMs: number,
  block?: bigint,
): Promise<LendingPositions> {
  const structure = await lending.structure()
  const markets = structure.listedMarkets.flatMap((m) => {
    const info = structure.markets.get(m.id)
    return info === undefined || m.collateralAsset === null
      ? []
      : [{ ...info, loanToken: m.loanAsset, collateralToken: m.collateralAsset }]
  })
  const vaults: VaultInfo[] = structure.vaults
  const first = await multiRead(
    chain,
    {
      number: [viewCall(BASE_ADDRESSES.Multicall3, multicall3BlockAbi, 'getBlockNumber', [])],
      time: [viewCall(BASE_ADDRESSES.Multicall3, multicall3BlockAbi, 'getCurrentBlockTimestamp', [])],
      position: markets.map((m) => viewCall(MORPHO, morphoAbi, 'position', [m.id, owner])),
      market: markets.map((m) => viewCall(MORPHO, morphoAbi, 'market', [m.id])),
      price: markets.map((m) => viewCall(m.params.oracle, morphoOracleAbi, 'price', [])),
      shares: vaults.map((v) => viewCall(v.address, shareBalanceAbi, 'balanceOf', [owner])),
    },
    block,
  )
  const number = first.number[0]
  const blockTime = first.time[0]
  if (number === undefined || blockTime === undefined)
    throw new UpstreamError(CHAIN_UPSTREAM, 'Multicall3 did not report the block it read')
  const at = Math.max(Number(blockTime), Math.floor(nowMs / 1000))
  const failures: LendingFailures = {}

  const borrowed = markets.flatMap((m, i) => {
    const position = first.position[i]
    const state = first.market[i]
    if (position === undefined || state === undefined) {
      failures.morpho = `position or market state of Morpho market ${m.id} unreadable`
      return []
    }
    const [, borrowShares, collateral] = position
    if (borrowShares === 0n && collateral === 0n) return []
    return [{ m, borrowShares, collateral, state, oraclePrice: first.price[i] ?? null }]
  })
  const held = vaults.flatMap((v, i) => {
    const shares = first.shares[i]
    if (shares === undefined) failures.vaults = `balanceOf on vault ${v.address} reverted`
    return shares === undefined || shares === 0n ? [] : [{ v, shares }]
  })

  const reserves = structure.aaveReserves
  const second = await multiRead(
    chain,
    {
      rate: borrowed.map(({ m, state }) =>
        viewCall(m.params.irm, morphoIrmAbi, 'borrowRateView', [
          m.params,
          {
            totalSupplyAssets: state[0],
            totalSupplyShares: state[1],
            totalBorrowAssets: state[2],
            totalBorrowShares: state[3],
            lastUpdate: state[4],
            fee: state[5],
          },
        ]),
      ),
      assets: held.map(({ v, shares }) => viewCall(v.address, shareBalanceAbi, 'convertToAssets', [shares])),
      account: [viewCall(BASE_ADDRESSES.AavePool, aaveAccountAbi, 'getUserAccountData', [owner])],
      supplied: reserves.map((r) => viewCall(r.aToken, erc20Abi, 'balanceOf', [owner])),
      debt: reserves.map((r) => viewCall(r.variableDebtToken, erc20Abi, 'balanceOf', [owner])),
      reserve: reserves.map((r) =>
        viewCall(BASE_ADDRESSES.AavePool, aavePoolReadAbi, 'getReserveData', [r.asset.address]),
      ),
      usd: reserves.map((r) =>
        viewCall(BASE_ADDRESSES.AaveOracle, aaveOracleAbi, 'getAssetPrice', [r.asset.address]),
      ),
    },
    number,
    BigInt(at),
  )

  const morpho: MorphoBorrow[] = borrowed.map(({ m, borrowShares, collateral, state, oraclePrice }, i) => {
    // A market without an IRM accrues nothing; a reverting IRM leaves the debt at its last accrual.
    const rate = second.rate[i]
    if (rate === undefined && borrowShares > 0n)
      failures.morpho = `borrowRateView of Morpho market ${m.id} reverted: debt shown as of its last accrual`
    const borrowRate = rate ?? 0n
    const side = {
      totalBorrowAssets: state[2],
      totalBorrowShares: state[3],
      lastUpdate: state[4],
      borrowRate,
    }
    if (oraclePrice === null) failures.morpho = `oracle of Morpho market ${m.id} reverted`
    return {
      marketId: m.id,
      params: m.params,
      loanToken: m.loanToken,
      collateralToken: m.collateralToken,
      collateral,
      borrowShares,
      debt: accruedBorrowAssets(borrowShares, side, BigInt(at)),
      oraclePrice,
      borrowRate,
    }
  })

  const holdings: VaultHolding[] = held.flatMap(({ v, shares }, i) => {
    const assets = second.assets[i]
    if (assets !== undefined)
      return [{ address: v.address, protocol: v.kind, asset: v.asset, shares, assets }]
    failures.vaults = `convertToAssets on vault ${v.address} reverted`
    return []
  })

  let aave: AaveAccount | null = null
  const account = second.account[0]
  if (account === undefined) failures.aave = 'Aave getUserAccountData reverted'
  else {
    const rows = reserves.map((r, i) => ({
      asset: r.asset,
      aToken: r.aToken,
      supplied: second.supplied[i],
      borrowed: second.debt[i],
      price: second.usd[i] ?? null,
      variableBorrowRate: second.reserve[i]?.currentVariableBorrowRate ?? null,
    }))
    if (rows.some((r) => r.supplied === undefined || r.borrowed === undefined))
      failures.aave = 'an Aave aToken or debt-token balance reverted'
    const known = rows.flatMap((r) =>
      r.supplied === undefined || r.borrowed === undefined
        ? []
        : [{ ...r, supplied: r.supplied, borrowed: r.borrowed }],
    )
    const active = known.filter((r) => r.supplied > 0n || r.borrowed > 0n)
    if (active.length > 0 || account[0] > 0n || account[1] > 0n)
      aave = {
        totalCollateralBase: account[0],
        totalDebtBase: account[1],
        availableBorrowsBase: account[2],
        liquidationThresholdBps: account[3],
        ltvBps: account[4],
        healthFactor: account[5],
        baseUnit: structure.usdUnit,
        reserves: active,
      }
    for (const r of active)
      if (r.supplied > 0n)
        holdings.push({
          address: r.aToken,
          protocol: 'aave-v3',
          asset: r.asset,
          shares: r.supplied,
          assets: r.supplied,
        })
  }

  return { block: { number, timestamp: Number(blockTime) }, at, morpho, vaults: holdings, aave, failures }
}
