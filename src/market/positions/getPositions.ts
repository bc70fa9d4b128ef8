import type { Address, PublicClient } from 'viem'
import { z } from 'zod'
import { analyzeLoan, type LoanPosition } from '../../analytics/analyzeLoan.js'
import { morphoRateToApy } from '../../analytics/lendingApy.js'
import { address, atomicAmount, marketId, unixSeconds } from '../../chain/fields.js'
import { CHAIN_UPSTREAM } from '../../chain/multiRead.js'
import { fromWad, WAD } from '../../chain/units.js'
import { UpstreamError } from '../../errors.js'
import { getVaults } from '../earn/getVaults.js'
import { getOpenTrades, openTrade } from '../getOpenTrades.js'
import type { LendingChain } from '../lendingChain.js'
import { fixedLoanPosition, morphoBorrowFields, morphoLoanPosition } from '../loan/borrowRisk.js'
import type { MarketData } from '../marketData.js'
import { significant } from '../numbers.js'
import { type FixedPosition, readFixedPositions } from '../readFixedPositions.js'
import { type AaveAccount, type LendingPositions, readLendingPositions } from '../readLendingPositions.js'
import { readVaultFlows, type VaultEarnings, vaultEarnings } from '../readVaultFlows.js'
import { SOURCE_OK, settledStatus, sourceStatus } from '../sourceStatus.js'
import { walletReadCache } from '../walletReadCache.js'

export interface PositionsDeps {
  chain: PublicClient
  lending: LendingChain
  market: MarketData
}

/** A borrow's risk at today's price (the full analysis, stress and restore amounts: /v1/loan/analysis). */
const borrowRiskFields = {
  healthFactor: z
    .number()
    .nullable()
    .describe('maxBorrow ÷ debt (see description); null with no debt or no oracle price'),
  liquidatable: z.boolean().describe('Health factor ≤ 1'),
  price: z.number().nullable().describe('Oracle price, loan tokens per whole collateral token'),
  liquidationPrice: z.number().nullable().describe('Oracle price at health 1'),
  liquidationDistancePct: z
    .number()
    .nullable()
    .describe('% the collateral may fall before liquidation; ≤ 0 when liquidatable'),
}

/** What GET /v1/positions/{address} answers. */
export const positionsOutput = z.object({
  address,
  block: z
    .object({ number: z.number().int().nonnegative(), timestamp: unixSeconds })
    .nullable()
    .describe('The head block every section was read at; null when no chain source answered'),
  asOf: unixSeconds
    .nullable()
    .describe('The time debts and deposits are accrued to: the later of the block time and now'),
  borrows: z.array(
    z.object({
      protocol: z.literal('morpho-blue'),
      marketId,
      collateralToken: address,
      collateralSymbol: z.string(),
      collateral: atomicAmount,
      loanToken: address,
      loanSymbol: z.string(),
      debt: atomicAmount.describe(
        'Loan-token atomic units owed at asOf, interest included (what a full repay costs)',
      ),
      lltv: z.number().describe('Liquidation loan-to-value, a fraction'),
      borrowApy: z.number().describe('e^(borrowRateView × 31,536,000) − 1'),
      ...borrowRiskFields,
    }),
  ),
  aave: z
    .object({
      healthFactor: z.number().nullable().describe('Aave’s own healthFactor; null with no debt'),
      totalCollateralUsd: z.number(),
      totalDebtUsd: z.number(),
      liquidationThreshold: z.number().describe('Weighted liquidation threshold, a fraction'),
      ltv: z.number(),
      liquidatable: z.boolean(),
      supplied: z.array(z.object({ asset: address, symbol: z.string(), amount: atomicAmount })),
      borrowed: z.array(z.object({ asset: address, symbol: z.string(), amount: atomicAmount })),
    })
    .nullable(),
  vaults: z.array(
    z.object({
      vault: address.describe('The vault, or the aToken for Aave'),
      protocol: z.enum(['metamorpho', 'erc4626', 'aave-v3']),
      asset: address,
      symbol: z.string(),
      shares: atomicAmount,
      assets: atomicAmount,
      apy: z.number().nullable(),
      earnings: z
        .string()
        .regex(/^-?\d+$/)
        .nullable()
        .describe('Atomic asset units earned since deposit; null when unknown'),
      earningsNote: z.string().nullable(),
    }),
  ),
  trades: z.array(openTrade),
  fixed: z.array(
    z.object({
      protocol: z.literal('morpho-midnight'),
      marketId,
      loanToken: address,
      loanSymbol: z.string(),
      maturity: unixSeconds,
      credit: atomicAmount.describe('Units lent: loan-token atomic amounts owed to the wallet at maturity'),
      debt: atomicAmount.describe('Units borrowed: owed by the wallet at maturity'),
      collaterals: z.array(z.object({ token: address, symbol: z.string(), amount: atomicAmount })),
      ...borrowRiskFields,
    }),
  ),
  sources: z.object({
    lending: sourceStatus,
    vaultApy: sourceStatus,
    vaultHistory: sourceStatus,
    gtrade: sourceStatus,
    gtradeMark: sourceStatus,
    midnight: sourceStatus,
  }),
})

export type Positions = z.output<typeof positionsOutput>
type BorrowRisk = z.output<z.ZodObject<typeof borrowRiskFields>>
type MorphoBorrowPosition = Positions['borrows'][number]
type AavePosition = NonNullable<Positions['aave']>
type FixedPositionOut = Positions['fixed'][number]

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
