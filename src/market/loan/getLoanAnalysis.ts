import type { Address, PublicClient } from 'viem'
import { z } from 'zod'
import { analyzeAaveAccount } from '../../analytics/analyzeAaveAccount.js'
import { analyzeLoan, type LoanPosition } from '../../analytics/analyzeLoan.js'
import { morphoRateToApy } from '../../analytics/lendingApy.js'
import { address, atomicAmount, marketId, unixSeconds } from '../../chain/fields.js'
import { CHAIN_UPSTREAM } from '../../chain/multiRead.js'
import { fromWad } from '../../chain/units.js'
import { UpstreamError } from '../../errors.js'
import type { LendingChain } from '../lendingChain.js'
import type { MarketData } from '../marketData.js'
import { significant } from '../numbers.js'
import { type FixedPosition, readFixedPositions } from '../readFixedPositions.js'
import { type AaveAccount, type MorphoBorrow, readLendingPositions } from '../readLendingPositions.js'
import { settledStatus, sourceStatus } from '../sourceStatus.js'
import { walletReadCache } from '../walletReadCache.js'
import { aaveRiskInput, fixedLoanPosition, morphoBorrowFields, morphoLoanPosition } from './borrowRisk.js'

/** How long the restore amounts handed to the builders stay sufficient: interest for this long is added. */
export const RESTORE_HORIZON_SEC = 3600
/** Morpho's repay-by-assets burns shares rounded down: the debt left can exceed debt − assets by this. */
const SHARE_ROUNDING_UNITS = 2n

const builderCall = z
  .object({ method: z.literal('POST'), path: z.string(), body: z.record(z.string(), z.string()) })
  .nullable()
  .describe(
    'The builder that performs this step and its exact body (amount covers one more hour of interest); null for Aave (no builder)',
  )

const restoreStep = z
  .object({
    assets: atomicAmount.describe(
      'The least amount (atomic; Aave: USD × 1e8) that restores the target at asOf',
    ),
    healthFactorAfter: z.number().nullable(),
    builder: builderCall,
  })
  .nullable()

/** What the read answers (the route's output schema). */
export const loanAnalysisOutput = z.object({
  address,
  block: z.object({ number: z.number().int().nonnegative(), timestamp: unixSeconds }).nullable(),
  asOf: unixSeconds.nullable().describe('The time debts are accrued to: the later of the block time and now'),
  targetHealth: z.number(),
  positions: z.array(
    z.object({
      protocol: z.enum(['morpho-blue', 'aave-v3', 'morpho-midnight']),
      marketId: marketId.nullable(),
      collateralToken: address.nullable(),
      collateralSymbol: z.string().nullable(),
      collateral: atomicAmount.nullable(),
      loanToken: address.nullable(),
      loanSymbol: z.string().nullable(),
      debt: atomicAmount.nullable(),
      collateralUsd: z.number().nullable(),
      debtUsd: z.number().nullable(),
      healthFactor: z.number().nullable(),
      status: z.enum(['solvent', 'liquidatable']),
      price: z.number().nullable().describe('Oracle price, loan tokens per whole collateral token'),
      liquidationPrice: z.number().nullable(),
      liquidationDistancePct: z
        .number()
        .nullable()
        .describe('How far the collateral must fall, %; ≤ 0 when liquidatable'),
      timeToLiquidationSec: z.number().nullable(),
      borrowApy: z.number().nullable(),
      stress: z.array(
        z.object({
          priceChangePct: z.number(),
          price: z.number().nullable(),
          collateralUsd: z.number().nullable(),
          healthFactor: z.number().nullable(),
          liquidatable: z.boolean(),
        }),
      ),
      restore: z.object({ targetHealth: z.number(), repay: restoreStep, supplyCollateral: restoreStep }),
      advice: z.string(),
    }),
  ),
  skipped: z.array(z.object({ protocol: z.string(), marketId, reason: z.string() })),
  sources: z.object({ lending: sourceStatus, midnight: sourceStatus }),
})

export type BuilderCall = NonNullable<RestoreStep['builder']>
export type RestoreStep = NonNullable<LoanPositionAnalysis['restore']['repay']>
export type LoanStressRow = LoanPositionAnalysis['stress'][number]
export type LoanPositionAnalysis = LoanAnalysisAnswer['positions'][number]
export type LoanAnalysisAnswer = z.output<typeof loanAnalysisOutput>

export interface LoanAnalysisDeps {
  chain: PublicClient
  lending: LendingChain
  market: MarketData
}

const sig = (n: number | null) => (n === null ? null : significant(n))

/**
 * Risk of every borrow of `owner` (Morpho Blue catalog markets, the Aave v3 account, Midnight fixed-rate
 * debts), read live like /v1/positions (debts accrued to `asOf`) and analysed by analytics/analyzeLoan and
 * analyzeAaveAccount. The restore amounts are exact at `asOf`; the builder bodies carry the amounts needed
 * RESTORE_HORIZON_SEC later at today's rate (and Morpho's share rounding), so they still reach the target
 * when included within the hour.
 */
export function getLoanAnalysis(
  deps: LoanAnalysisDeps,
  owner: Address,
  nowMs: number,
  targetHealth: number,
): Promise<LoanAnalysisAnswer> {
  return cache(deps.chain, `${owner}:${targetHealth}`, (head) =>
    readLoanAnalysis(deps, owner, nowMs, targetHealth, head),
  )
}

const cache = walletReadCache<LoanAnalysisAnswer>()

async function readLoanAnalysis(
  deps: LoanAnalysisDeps,
  owner: Address,
  nowMs: number,
  targetHealth: number,
  head: bigint | undefined,
): Promise<LoanAnalysisAnswer> {
  const [lending, fixed] = await Promise.allSettled([
    readLendingPositions(deps.lending, deps.chain, owner, nowMs, head),
    readFixedPositions(deps.chain, deps.market.midnight, owner, head),
  ])
  if (lending.status === 'rejected' && fixed.status === 'rejected')
    throw new UpstreamError(CHAIN_UPSTREAM, 'no borrow source answered', { cause: lending.reason })
  const l = lending.status === 'fulfilled' ? lending.value : null
  const positions: LoanPositionAnalysis[] = []
  const skipped: LoanAnalysisAnswer['skipped'] = []
  for (const b of l?.morpho ?? []) {
    if (b.debt === 0n) continue
    const p = morphoLoanPosition(b, targetHealth)
    if (p === null)
      skipped.push({
        protocol: 'morpho-blue',
        marketId: b.marketId,
        reason: 'the market oracle did not answer',
      })
    else positions.push(morphoAnalysis(b, p, owner))
  }
  if (l?.aave && l.aave.totalDebtBase > 0n) positions.push(aaveAnalysis(l.aave, targetHealth))
  for (const f of fixed.status === 'fulfilled' ? fixed.value : []) {
    if (f.debt === 0n) continue
    const p = fixedLoanPosition(f, targetHealth)
    if (p === null)
      skipped.push({
        protocol: 'morpho-midnight',
        marketId: f.marketId,
        reason: 'backed by several collaterals (or an oracle did not answer): no single liquidation price',
      })
    else positions.push(fixedAnalysis(f, p, owner))
  }
  const lendingFailures = l === null ? [] : Object.values(l.failures)
  return {
    address: owner,
    block: l === null ? null : { number: Number(l.block.number), timestamp: l.block.timestamp },
    asOf: l?.at ?? null,
    targetHealth,
    positions,
    skipped,
    sources: {
      lending: settledStatus(lending, lendingFailures),
      midnight: settledStatus(fixed),
    },
  }
}

/** The debt RESTORE_HORIZON_SEC from now at `ratePerSecondWad` (continuous compounding), rounded up. */
function debtAhead(debt: bigint, ratePerSecondWad: bigint | null): bigint {
  if (ratePerSecondWad === null || ratePerSecondWad === 0n) return debt
  const growth = Math.expm1(fromWad(ratePerSecondWad) * RESTORE_HORIZON_SEC)
  return debt + BigInt(Math.ceil(Number(debt) * growth))
}

function common(p: LoanPosition) {
  const a = analyzeLoan(p)
  const ahead = analyzeLoan({ ...p, debt: debtAhead(p.debt, p.borrowRatePerSecond) })
  return { a, ahead }
}

function loanFields(a: ReturnType<typeof analyzeLoan>) {
  return {
    healthFactor: sig(a.healthFactor),
    status: a.status,
    price: significant(a.price),
    liquidationPrice: sig(a.liquidationPrice),
    liquidationDistancePct: sig(a.liquidationDistancePct),
    timeToLiquidationSec: a.timeToLiquidationSec,
    stress: a.stress.map((s) => ({
      priceChangePct: s.priceChangePct,
      price: significant(s.price),
      collateralUsd: null,
      healthFactor: sig(s.healthFactor),
      liquidatable: s.liquidatable,
    })),
    advice: a.advice,
  }
}

function morphoAnalysis(b: MorphoBorrow, p: LoanPosition, owner: Address): LoanPositionAnalysis {
  const { a, ahead } = common(p)
  const repayBody = ahead.restore.repay && BigInt(ahead.restore.repay.assets) + SHARE_ROUNDING_UNITS
  return {
    ...morphoBorrowFields(b),
    collateralUsd: null,
    debtUsd: null,
    borrowApy: significant(morphoRateToApy(b.borrowRate)),
    ...loanFields(a),
    restore: {
      targetHealth: a.restore.targetHealth,
      repay: a.restore.repay && {
        assets: a.restore.repay.assets,
        healthFactorAfter: sig(a.restore.repay.healthFactorAfter),
        builder:
          repayBody === null
            ? null
            : call('/v1/tx/loan/repay', { marketId: b.marketId, assets: repayBody.toString(), owner }),
      },
      supplyCollateral: a.restore.supplyCollateral && {
        assets: a.restore.supplyCollateral.assets,
        healthFactorAfter: sig(a.restore.supplyCollateral.healthFactorAfter),
        builder:
          ahead.restore.supplyCollateral === null
            ? null
            : call('/v1/tx/loan/supply-collateral', {
                marketId: b.marketId,
                assets: ahead.restore.supplyCollateral.assets,
                owner,
              }),
      },
    },
  }
}

function fixedAnalysis(f: FixedPosition, p: LoanPosition, owner: Address): LoanPositionAnalysis {
  // Fixed-rate debt does not accrue: the exact amounts are the builder amounts.
  const a = analyzeLoan(p)
  const collateral = f.collaterals[0]
  return {
    protocol: 'morpho-midnight',
    marketId: f.marketId,
    collateralToken: collateral?.token.address ?? null,
    collateralSymbol: collateral?.token.symbol ?? null,
    collateral: collateral?.amount.toString() ?? null,
    loanToken: f.loanToken.address,
    loanSymbol: f.loanToken.symbol,
    debt: f.debt.toString(),
    collateralUsd: null,
    debtUsd: null,
    borrowApy: null,
    ...loanFields(a),
    restore: {
      targetHealth: a.restore.targetHealth,
      repay: a.restore.repay && {
        assets: a.restore.repay.assets,
        healthFactorAfter: sig(a.restore.repay.healthFactorAfter),
        builder: call('/v1/tx/fixed/repay', { marketId: f.marketId, units: a.restore.repay.assets, owner }),
      },
      supplyCollateral:
        a.restore.supplyCollateral && collateral
          ? {
              assets: a.restore.supplyCollateral.assets,
              healthFactorAfter: sig(a.restore.supplyCollateral.healthFactorAfter),
              builder: call('/v1/tx/fixed/supply-collateral', {
                marketId: f.marketId,
                collateralToken: collateral.token.address,
                assets: a.restore.supplyCollateral.assets,
                owner,
              }),
            }
          : null,
    },
  }
}

function aaveAnalysis(account: AaveAccount, targetHealth: number): LoanPositionAnalysis {
  const a = analyzeAaveAccount(aaveRiskInput(account, targetHealth))
  const apr = aaveRiskInput(account, targetHealth).borrowApr
  const step = (s: { base: string; healthFactorAfter: number | null } | null): RestoreStep | null =>
    s && { assets: s.base, healthFactorAfter: sig(s.healthFactorAfter), builder: null }
  return {
    protocol: 'aave-v3',
    marketId: null,
    collateralToken: null,
    collateralSymbol: null,
    collateral: null,
    loanToken: null,
    loanSymbol: null,
    debt: null,
    collateralUsd: significant(a.collateralUsd),
    debtUsd: significant(a.debtUsd),
    healthFactor: sig(a.healthFactor),
    status: a.status,
    price: null,
    liquidationPrice: null,
    liquidationDistancePct: sig(a.liquidationDistancePct),
    timeToLiquidationSec: a.timeToLiquidationSec,
    borrowApy: apr === null ? null : significant(Math.expm1(apr)),
    stress: a.stress.map((s) => ({
      priceChangePct: s.collateralChangePct,
      price: null,
      collateralUsd: significant(s.collateralUsd),
      healthFactor: sig(s.healthFactor),
      liquidatable: s.liquidatable,
    })),
    restore: {
      targetHealth: a.restore.targetHealth,
      repay: step(a.restore.repay),
      supplyCollateral: step(a.restore.supplyCollateral),
    },
    advice: a.advice,
  }
}

function call(path: string, body: Record<string, string>): BuilderCall {
  return { method: 'POST', path, body }
}
