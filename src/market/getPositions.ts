import type { Address, Hex, PublicClient } from 'viem'
import { analyzeLoan, type LoanPosition } from '../analytics/analyzeLoan.js'
import { morphoRateToApy } from '../analytics/lendingApy.js'
import { fromWad, WAD } from '../chain/units.js'
import { fixedLoanPosition, morphoBorrowFields, morphoLoanPosition } from './borrowRisk.js'
import { getOpenTrades, type OpenTrade } from './getOpenTrades.js'
import { getVaults } from './getVaults.js'
import type { LendingChain } from './lendingChain.js'
import type { MarketData } from './marketData.js'
import { CHAIN_UPSTREAM } from './multiRead.js'
import { significant } from './numbers.js'
import { type FixedPosition, readFixedPositions } from './readFixedPositions.js'
import { type AaveAccount, type LendingPositions, readLendingPositions } from './readLendingPositions.js'
import { readVaultFlows, type VaultEarnings, vaultEarnings } from './readVaultFlows.js'
import { SOURCE_OK, type SourceStatus, settledStatus } from './sourceStatus.js'
import { UpstreamError } from './upstreams/fetchJson.js'
import { walletReadCache } from './walletReadCache.js'

export interface PositionsDeps {
  chain: PublicClient
  lending: LendingChain
  market: MarketData
}

/** A borrow's risk at today's price (the full analysis, stress and restore amounts: /v1/loan/analysis). */
export interface BorrowRisk {
  /** maxBorrow / debt; null with no debt or no oracle price. */
  healthFactor: number | null
  /** Health factor ≤ 1. */
  liquidatable: boolean
  /** The oracle's price, loan tokens per whole collateral token; null without one. */
  price: number | null
  /** The oracle price at which health reaches 1; null without debt or price. */
  liquidationPrice: number | null
  /** How far the price must fall to liquidate, percent; ≤ 0 when already liquidatable. */
  liquidationDistancePct: number | null
}

export interface MorphoBorrowPosition extends BorrowRisk {
  protocol: 'morpho-blue'
  marketId: Hex
  collateralToken: Address
  collateralSymbol: string
  /** Atomic collateral units. */
  collateral: string
  loanToken: Address
  loanSymbol: string
  /** Atomic loan units owed at `asOf`, interest included. */
  debt: string
  /** Liquidation LTV, a fraction. */
  lltv: number
  /** Yearly borrow rate now, e^(rate × 31,536,000) − 1. */
  borrowApy: number
}

export interface AavePosition {
  /** null with no debt (Aave reports an unbounded factor). */
  healthFactor: number | null
  totalCollateralUsd: number
  totalDebtUsd: number
  /** Weighted liquidation threshold and LTV, fractions. */
  liquidationThreshold: number
  ltv: number
  liquidatable: boolean
  supplied: { asset: Address; symbol: string; amount: string }[]
  borrowed: { asset: Address; symbol: string; amount: string }[]
}

export interface VaultPosition {
  vault: Address
  protocol: 'metamorpho' | 'erc4626' | 'aave-v3'
  asset: Address
  symbol: string
  shares: string
  assets: string
  /** The vault's net APY as /v1/earn/vaults reports it (15-s cache); null when it cannot be derived. */
  apy: number | null
  /** assets − net deposited (atomic); null when the cost basis is unknown (see earningsNote). */
  earnings: string | null
  earningsNote: string | null
}

export interface FixedPositionOut extends BorrowRisk {
  protocol: 'morpho-midnight'
  marketId: Hex
  loanToken: Address
  loanSymbol: string
  maturity: number
  credit: string
  debt: string
  collaterals: { token: Address; symbol: string; amount: string }[]
}

export interface Positions {
  address: Address
  block: { number: number; timestamp: number } | null
  /** Unix seconds debts and deposits are accrued to: the later of the block's time and now. */
  asOf: number | null
  borrows: MorphoBorrowPosition[]
  aave: AavePosition | null
  vaults: VaultPosition[]
  trades: OpenTrade[]
  fixed: FixedPositionOut[]
  sources: Record<
    'lending' | 'vaultApy' | 'vaultHistory' | 'gtrade' | 'gtradeMark' | 'midnight',
    SourceStatus
  >
}

/**
 * Every open position of `owner`, read concurrently by source (see each reader for its RPC cost):
 * Morpho Blue borrows, Aave v3 and vault deposits (readLendingPositions: two multicalls; the vault
 * events for earnings beside them, readVaultFlows), gTrade open trades (getOpenTrades), Morpho Midnight fixed-rate positions
 * (readFixedPositions). A failing source empties its own section and says why in `sources`; when the
 * lending, gTrade and Midnight sources all fail, nothing is known and the read is a 502 (nothing charged).
 */
export function getPositions(deps: PositionsDeps, owner: Address, nowMs: number): Promise<Positions> {
  return cache(deps.chain, owner, (head) => readPositions(deps, owner, nowMs, head))
}

const cache = walletReadCache<Positions>()

async function readPositions(
  deps: PositionsDeps,
  owner: Address,
  nowMs: number,
  head: bigint | undefined,
): Promise<Positions> {
  const { chain, lending, market } = deps
  // Every source starts at once, pinned to the same head block: the balance reads, the vault events
  // (over the whole catalog, so they need not wait to learn which vaults are held), the vault APYs
  // (the /v1/earn/vaults snapshot, cached 15 s), the perp venue and Midnight.
  const lendingRead = readLendingPositions(lending, chain, owner, nowMs, head)
  const flowsRead = lending.structure().then((s) =>
    readVaultFlows(
      chain,
      owner,
      s.vaults.map((v) => v.address),
      s.aaveReserves.map((r) => r.aToken),
      head,
    ),
  )
  const [l, flows, apys, trades, fixed] = await Promise.allSettled([
    lendingRead,
    flowsRead,
    getVaults(lending),
    getOpenTrades(chain, market, owner, nowMs, head),
    readFixedPositions(chain, market.midnight, owner, head),
  ])
  if (l.status === 'rejected' && trades.status === 'rejected' && fixed.status === 'rejected')
    throw new UpstreamError(CHAIN_UPSTREAM, 'no position source answered', { cause: l.reason })

  const lendingOk = l.status === 'fulfilled' ? l.value : null
  const apyByVault = new Map(
    apys.status === 'fulfilled'
      ? apys.value.vaults.map((v) => [v.address.toLowerCase(), v.netApy] as const)
      : [],
  )
  const earned =
    flows.status === 'fulfilled' && lendingOk !== null
      ? vaultEarnings(lendingOk.vaults, flows.value)
      : new Map<Address, VaultEarnings>()
  const failures = lendingOk === null ? [] : Object.values(lendingOk.failures)
  const chainTime = lendingOk?.at ?? (trades.status === 'fulfilled' ? trades.value.block.timestamp : null)
  return {
    address: owner,
    block:
      lendingOk !== null
        ? { number: Number(lendingOk.block.number), timestamp: lendingOk.block.timestamp }
        : trades.status === 'fulfilled'
          ? trades.value.block
          : null,
    asOf: chainTime,
    borrows: lendingOk === null ? [] : morphoSection(lendingOk),
    aave: lendingOk?.aave ? aaveSection(lendingOk.aave) : null,
    vaults: (lendingOk?.vaults ?? []).map((h) => {
      const e = earned.get(h.address)
      return {
        vault: h.address,
        protocol: h.protocol,
        asset: h.asset.address,
        symbol: h.asset.symbol,
        shares: h.shares.toString(),
        assets: h.assets.toString(),
        apy: apyByVault.get(h.address.toLowerCase()) ?? null,
        earnings: e?.earnings === null || e === undefined ? null : e.earnings.toString(),
        earningsNote: e === undefined ? 'earnings history unavailable' : e.note,
      }
    }),
    trades: trades.status === 'fulfilled' ? trades.value.trades : [],
    fixed: fixed.status === 'fulfilled' ? fixed.value.map(fixedSection) : [],
    sources: {
      lending: settledStatus(l, failures),
      vaultApy: settledStatus(apys),
      vaultHistory: settledStatus(flows),
      gtrade: settledStatus(trades),
      gtradeMark: trades.status === 'fulfilled' ? trades.value.mark : SOURCE_OK,
      midnight: settledStatus(fixed),
    },
  }
}

function morphoSection(l: LendingPositions): MorphoBorrowPosition[] {
  return l.morpho.map((b) => ({
    ...morphoBorrowFields(b),
    lltv: fromWad(b.params.lltv),
    borrowApy: significant(morphoRateToApy(b.borrowRate)),
    ...riskOf(morphoLoanPosition(b)),
  }))
}

function riskOf(position: LoanPosition | null): BorrowRisk {
  if (position === null)
    return {
      healthFactor: null,
      liquidatable: false,
      price: null,
      liquidationPrice: null,
      liquidationDistancePct: null,
    }
  const a = analyzeLoan(position)
  return {
    healthFactor: a.healthFactor === null ? null : significant(a.healthFactor),
    liquidatable: a.status === 'liquidatable',
    price: significant(a.price),
    liquidationPrice: a.liquidationPrice === null ? null : significant(a.liquidationPrice),
    liquidationDistancePct: a.liquidationDistancePct === null ? null : significant(a.liquidationDistancePct),
  }
}

function aaveSection(a: AaveAccount): AavePosition {
  const unit = a.baseUnit === null ? null : Number(a.baseUnit)
  const usd = (v: bigint) => (unit === null ? 0 : significant(Number(v) / unit))
  const noDebt = a.totalDebtBase === 0n
  return {
    healthFactor: noDebt ? null : significant(fromWad(a.healthFactor)),
    totalCollateralUsd: usd(a.totalCollateralBase),
    totalDebtUsd: usd(a.totalDebtBase),
    liquidationThreshold: Number(a.liquidationThresholdBps) / 10_000,
    ltv: Number(a.ltvBps) / 10_000,
    liquidatable: !noDebt && a.healthFactor < WAD,
    supplied: a.reserves
      .filter((r) => r.supplied > 0n)
      .map((r) => ({ asset: r.asset.address, symbol: r.asset.symbol, amount: r.supplied.toString() })),
    borrowed: a.reserves
      .filter((r) => r.borrowed > 0n)
      .map((r) => ({ asset: r.asset.address, symbol: r.asset.symbol, amount: r.borrowed.toString() })),
  }
}

function fixedSection(p: FixedPosition): FixedPositionOut {
  return {
    protocol: 'morpho-midnight',
    marketId: p.marketId,
    loanToken: p.loanToken.address,
    loanSymbol: p.loanToken.symbol,
    maturity: p.maturity,
    credit: p.credit.toString(),
    debt: p.debt.toString(),
    collaterals: p.collaterals.map((c) => ({
      token: c.token.address,
      symbol: c.token.symbol,
      amount: c.amount.toString(),
    })),
    ...riskOf(fixedLoanPosition(p)),
  }
}
