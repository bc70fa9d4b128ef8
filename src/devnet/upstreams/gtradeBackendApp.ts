import { Hono } from 'hono'
import { type Address, getAddress, isAddress } from 'viem'
import type { MarketSimulator, SimClock } from '../simulator/marketSimulator.js'
import { GTRADE_FEES, GTRADE_GROUPS, type Instrument } from '../simulator/universe.js'
import type { GtradeHistoryEvent, GtradeOpenTrade, GtradeTradeSource } from './gtradeTradeSource.js'

/**
 * gTrade backend (backend-base.gains.trade) plus the history endpoint that moved to
 * backend-global.gains.trade; the devnet serves both from one origin.
 *
 * Shapes follow protocols.md §1 and the SDK's backend types (GlobalTradingVariablesBackend,
 * TradeContainerBackend): integers and fixed-point values as strings, a few counters as numbers.
 * UNCERTAIN choices, each marked below: fee/min-size encodings, liquidation params, the history
 * record's value types and `size` meaning, history limit bounds, error bodies.
 */

const USDC: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const GUSDC: Address = '0xad20523A7dC37bAbc1CC74897E4977232b3D02e5'
const USDC_COLLATERAL_INDEX = 1
const BASE_CHAIN_ID = 8453
/** Base genesis (block 0) and its 2 s block time, for a clock-derived block number. */
const BASE_GENESIS_MS = 1_686_789_347_000

/** "…P" values are percent × 1e10; leverages × 1e3 (protocols.md §1). */
const pct1e10 = (pct: number): string => BigInt(Math.round(pct * 1e10)).toString()
const lev1e3 = (lev: number): string => String(Math.round(lev * 1000))

// UNCERTAIN: one liquidation-params set for every group: 90 % threshold at all leverages, 0.05 % max spread.
const LIQUIDATION_PARAMS = {
  maxLiqSpreadP: pct1e10(0.05),
  startLiqThresholdP: pct1e10(90),
  endLiqThresholdP: pct1e10(90),
  startLeverage: lev1e3(10),
  endLeverage: lev1e3(250),
}

export interface GtradeBackendAppOptions {
  sim: MarketSimulator
  trades: GtradeTradeSource
  clock?: SimClock
  /** Latest block number; defaults to one derived from the clock (Base: 2 s blocks). */
  currentBlock?: () => Promise<number>
}

export function createGtradeBackendApp(options: GtradeBackendAppOptions): Hono {
  const { sim, trades } = options
  const clock = options.clock ?? sim.clock
  const currentBlock =
    options.currentBlock ?? (async () => Math.floor((clock.now() - BASE_GENESIS_MS) / 2000))
  let refreshId = 0

  const tradingVariables = async () => {
    const nowMs = clock.now()
    const chainOi = (await trades.pairOpenInterest?.()) ?? new Map<number, { long: bigint; short: bigint }>()
    const block = await currentBlock()
    const universe = sim.universe
    refreshId += 1
    const pairOis = universe.map((inst) => {
      const crowd = sim.perp.openInterest(inst.pairIndex, nowMs)
      const onchain = chainOi.get(inst.pairIndex)
      const longCollateral = BigInt(Math.round(crowd.longUsd * 1e6)) + (onchain?.long ?? 0n)
      const shortCollateral = BigInt(Math.round(crowd.shortUsd * 1e6)) + (onchain?.short ?? 0n)
      const price = sim.spot(inst.symbol, nowMs)
      // Token OI is 1e18-scaled base units; collateral is 1e6-scaled USDC at price `price`.
      const toToken = (collateral: bigint): string =>
        (BigInt(Math.round(Number(collateral) / price)) * 10n ** 12n).toString()
      return {
        beforeV10: { long: '0', short: '0', max: '0' },
        collateral: {
          oiLongCollateral: longCollateral.toString(),
          oiShortCollateral: shortCollateral.toString(),
        },
        token: { oiLongToken: toToken(longCollateral), oiShortToken: toToken(shortCollateral) },
      }
    })
    return {
      lastRefreshed: new Date(nowMs).toISOString(),
      refreshId,
      tradingState: 0,
      marketOrdersTimeoutBlocks: 60,
      pairs: universe.map((inst) => ({
        from: inst.from,
        to: inst.to,
        spreadP: pct1e10(inst.spreadPct),
        groupIndex: String(inst.groupIndex),
        feeIndex: String(inst.feeIndex),
      })),
      groups: GTRADE_GROUPS.map((g) => ({
        name: g.name,
        minLeverage: lev1e3(g.minLeverage),
        maxLeverage: lev1e3(g.maxLeverage),
      })),
      // UNCERTAIN: minPositionSizeUsd encoded × 1e3 (the on-chain field is a uint32).
      fees: GTRADE_FEES.map((f) => ({
        totalPositionSizeFeeP: pct1e10(f.totalPositionSizeFeePct),
        totalLiqCollateralFeeP: pct1e10(f.totalLiqCollateralFeePct),
        oraclePositionSizeFeeP: pct1e10(f.oraclePositionSizeFeePct),
        minPositionSizeUsd: String(f.minPositionSizeUsd * 1000),
      })),
      pairInfos: {
        maxLeverages: universe.map((inst) => lev1e3(inst.maxLeverage)),
        // SDK 1.8.7's PairInfosBackend: packed depth-band slots (uint256 strings). UNCERTAIN: the packing;
        // the simulator models no depth bands (all zero), and nothing of ours reads them.
        pairDepthBands: universe.map(() => ({
          aboveSlot1: '0',
          aboveSlot2: '0',
          belowSlot1: '0',
          belowSlot2: '0',
        })),
        pairFactors: universe.map(() => ({
          cumulativeFactor: '1000000000000000000',
          protectionCloseFactor: '1000000000000000000',
          protectionCloseFactorBlocks: '0',
          exemptOnOpen: false,
          exemptAfterProtectionCloseFactor: false,
        })),
      },
      collaterals: [
        {
          collateralIndex: USDC_COLLATERAL_INDEX,
          collateral: USDC,
          symbol: 'USDC',
          isActive: true,
          prices: { collateralPriceUsd: 1, gnsPriceCollateral: 2, gnsPriceUsd: 2 },
          collateralConfig: { precision: '1000000', precisionDelta: '1000000000000', decimals: 6 },
          gToken: {
            address: GUSDC,
            currentBalanceCollateral: '10000000000000',
            maxBalanceCollateral: '50000000000000',
            marketCap: '10000000000000',
          },
          borrowingFees: {
            v1: { pairs: [], groups: [] },
            v2: {
              pairParams: universe.map(() => ({ borrowingRatePerSecondP: '0' })),
              pairData: universe.map(() => ({ accBorrowingFeeP: '0', lastBorrowingUpdateTs: '0' })),
            },
          },
          fundingFees: {
            pairGlobalParams: universe.map(() => ({ maxSkewCollateral: '0' })),
            pairParams: universe.map(() => ({
              skewCoefficientPerYear: '0',
              absoluteVelocityPerYearCap: '0',
              absoluteRatePerSecondCap: '0',
              thetaThresholdUsd: '0',
              fundingFeesEnabled: false,
              aprMultiplierEnabled: false,
            })),
            pairData: universe.map(() => ({
              accFundingFeeLongP: '0',
              accFundingFeeShortP: '0',
              lastFundingRatePerSecondP: '0',
              lastFundingUpdateTs: '0',
            })),
          },
          pairOis,
        },
      ],
      sssTokenBalance: '0',
      sssLegacyTokenBalance: '0',
      sssRewardTokens: [],
      vaultClosingFeeP: '0',
      maxNegativePnlOnOpenP: 40,
      blockConfirmations: 1,
      oiWindowsSettings: { startTs: 0, windowsDuration: 0, windowsCount: 0 },
      oiWindows: [],
      depthBandsMapping: { slot1: '0', slot2: '0' },
      feeTiers: {
        tiers: [],
        multipliers: [],
        currentDay: Math.floor(nowMs / 86_400_000),
        stakingTiers: [],
        gnsVaultAddress: '0x0000000000000000000000000000000000000000',
        useGnsVaultBalance: false,
      },
      // Empty upstream since 2025-10-27 (protocols.md §1).
      allTrades: [],
      currentBlock: block,
      currentL1Block: Math.floor(block / 6),
      // The simulator trades every class around the clock.
      isForexOpen: true,
      isStocksOpen: true,
      isIndicesOpen: true,
      isCommoditiesOpen: true,
      liquidationParams: {
        groups: GTRADE_GROUPS.map(() => LIQUIDATION_PARAMS),
        pairs: universe.map(() => LIQUIDATION_PARAMS),
      },
      counterTradeSettings: [],
      globalTradeFeeParams: {
        referralFeeP: '0',
        govFeeP: '0',
        triggerOrderFeeP: '0',
        gnsOtcFeeP: '0',
        gTokenFeeP: '0',
      },
      negPnlCumulVolMultiplier: '0',
      congestionLevels: { low: 0, high: 0 },
    }
  }

  const app = new Hono()
  app.notFound((c) => c.json({ error: 'Not Found' }, 404))

  app.get('/trading-variables/all', async (c) => c.json(await tradingVariables()))
  // Legacy alias with the same body.
  app.get('/trading-variables', async (c) => c.json(await tradingVariables()))

  app.get('/open-trades/:address', async (c) => {
    const raw = c.req.param('address')
    // UNCERTAIN: error body. The real backend keys trades by checksummed address, so a lower-case
    // address finds nothing: mirrored here so adapters that forget to checksum fail in tests too.
    if (!isAddress(raw, { strict: false })) return c.json({ error: 'Invalid address' }, 400)
    if (raw !== getAddress(raw)) return c.json([])
    const open = await trades.openTrades(raw)
    return c.json(open.map(tradeContainer))
  })

  app.get('/api/personal-trading-history/:address', async (c) => {
    const raw = c.req.param('address')
    if (!isAddress(raw, { strict: false })) return c.json({ error: 'Invalid address' }, 400)
    const chainId = c.req.query('chainId')
    // UNCERTAIN: error body for a missing chainId; limit bounds 1..100, default 50.
    if (chainId === undefined) return c.json({ error: 'chainId is required' }, 400)
    const limitRaw = Number(c.req.query('limit') ?? 50)
    const limit = Number.isInteger(limitRaw) ? Math.min(100, Math.max(1, limitRaw)) : 50
    if (Number(chainId) !== BASE_CHAIN_ID) {
      return c.json({ data: [], pagination: { hasMore: false, nextCursor: null, limit } })
    }
    const cursor = c.req.query('cursor') || undefined
    const page = await trades.history(getAddress(raw), cursor, limit)
    return c.json({
      data: page.events.map((e) => historyRecord(e, sim.universe[e.pairIndex])),
      pagination: { hasMore: page.nextCursor !== undefined, nextCursor: page.nextCursor ?? null, limit },
    })
  })

  return app
}

function tradeContainer({ trade, tradeInfo }: GtradeOpenTrade) {
  const zeros = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, '0']))
  return {
    trade: {
      user: trade.user,
      index: String(trade.index),
      pairIndex: String(trade.pairIndex),
      leverage: String(trade.leverage),
      long: trade.long,
      isOpen: trade.isOpen,
      collateralIndex: String(trade.collateralIndex),
      tradeType: String(trade.tradeType),
      collateralAmount: trade.collateralAmount.toString(),
      openPrice: trade.openPrice.toString(),
      tp: trade.tp.toString(),
      sl: trade.sl.toString(),
      isCounterTrade: trade.isCounterTrade,
      positionSizeToken: trade.positionSizeToken.toString(),
    },
    tradeInfo: {
      createdBlock: String(tradeInfo.createdBlock),
      tpLastUpdatedBlock: String(tradeInfo.tpLastUpdatedBlock),
      slLastUpdatedBlock: String(tradeInfo.slLastUpdatedBlock),
      maxSlippageP: String(tradeInfo.maxSlippageP),
      lastOiUpdateTs: tradeInfo.lastOiUpdateTs,
      collateralPriceUsd: tradeInfo.collateralPriceUsd.toString(),
      contractsVersion: String(tradeInfo.contractsVersion),
      lastPosIncreaseBlock: String(tradeInfo.lastPosIncreaseBlock),
    },
    initialAccFees: { accPairFee: '0', accGroupFee: '0', block: String(tradeInfo.createdBlock) },
    liquidationParams: LIQUIDATION_PARAMS,
    tradeFeesData: zeros([
      'realizedTradingFeesCollateral',
      'realizedPnlCollateral',
      'manuallyRealizedNegativePnlCollateral',
      'alreadyTransferredNegativePnlCollateral',
      'virtualAvailableCollateralInDiamond',
      'initialAccFundingFeeP',
      'initialAccBorrowingFeeP',
    ]),
    uiRealizedPnlData: zeros([
      'realizedTradingFeesCollateral',
      'realizedOldBorrowingFeesCollateral',
      'realizedNewBorrowingFeesCollateral',
      'realizedFundingFeesCollateral',
      'realizedPnlPartialCloseCollateral',
      'pnlWithdrawnCollateral',
    ]),
  }
}

/**
 * UNCERTAIN: protocols.md lists the record's field names only. Values here: numbers for amounts and
 * prices (human units), `size` = position collateral, `date` ISO-8601, `pair` "BASE/QUOTE", null for
 * absent deltas and meta.
 */
function historyRecord(e: GtradeHistoryEvent, inst: Instrument | undefined) {
  return {
    action: e.action,
    address: e.trader,
    block: e.block,
    // The SDK types both flags 0 | 1.
    long: e.long ? 1 : 0,
    collateralPriceUsd: e.collateralPriceUsd,
    collateralIndex: e.collateralIndex,
    date: new Date(e.timestampSec * 1000).toISOString(),
    leverage: e.leverage,
    pair: inst ? `${inst.from}/${inst.to}` : `#${e.pairIndex}`,
    pnl_net: e.pnlNet,
    price: e.price,
    size: e.collateral,
    tx: e.txHash,
    tradeIndex: e.tradeIndex,
    collateralDelta: e.collateralDelta ?? null,
    leverageDelta: e.leverageDelta ?? null,
    marketPrice: e.marketPrice,
    isCounterTrade: e.isCounterTrade === true ? 1 : 0,
    meta: historyMeta(e),
  }
}

const ZERO_FEES = {
  realizedTradingFeesCollateral: 0,
  realizedPnlCollateral: 0,
  manuallyRealizedNegativePnlCollateral: 0,
  alreadyTransferredNegativePnlCollateral: 0,
  virtualAvailableCollateralInDiamond: 0,
  initialAccFundingFeeP: 0,
  initialAccBorrowingFeeP: 0,
}
const ZERO_UI_PNL = {
  realizedTradingFeesCollateral: 0,
  realizedOldBorrowingFeesCollateral: 0,
  realizedNewBorrowingFeesCollateral: 0,
  realizedFundingFeesCollateral: 0,
  realizedPnlPartialCloseCollateral: 0,
  pnlWithdrawnCollateral: 0,
}

/**
 * The record's `meta`, shaped as the SDK's metadata type of its action (OpenTradeHistoryMetaData for opens
 * and closes, LeverageUpdateHistoryMetaData, Partial{Open,Close}TradeHistoryMetaData). UNCERTAIN: only the
 * figures the event carries are real (price, collateral, PnL); fees and liquidation prices are 0: the
 * simulator models neither, and nothing of ours reads `meta`.
 */
function historyMeta(e: GtradeHistoryEvent) {
  const priceImpact = {
    fixedSpreadP: 0,
    priceAfterImpact: e.price,
    skewPriceImpactP: 0,
    positionSizeToken: (e.collateral * e.leverage) / e.price,
    totalPriceImpactP: 0,
    cumulVolPriceImpactP: 0,
  }
  const fees = { tradeFeesData: ZERO_FEES, uiRealizedPnlData: ZERO_UI_PNL }
  const collateral = e.collateral + (e.collateralDelta ?? 0)
  const leverage = e.leverage + (e.leverageDelta ?? 0)
  if (e.action === 'TradeLeverageUpdate')
    return {
      availableCollateralInDiamond: 0,
      existingLiqPrice: 0,
      govFeeCollateral: 0,
      newCollateralAmount: collateral,
      newEffectiveLeverage: leverage,
      newLeverage: leverage,
      newLiqPrice: 0,
      totalTradeAvailableCollateralInDiamond: 0,
      ...fees,
    }
  if (e.action === 'TradePositionSizeIncrease')
    return {
      newLeverage: leverage,
      newLiqPrice: 0,
      newOpenPrice: e.price,
      existingLiqPrice: 0,
      newCollateralAmount: collateral,
      newEffectiveLeverage: leverage,
      existingPnlCollateral: 0,
      openingFeesCollateral: 0,
      isCounterTradeValidated: false,
      newPositionSizeCollateral: collateral * leverage,
      oldPosSizePlusPnlCollateral: e.collateral * e.leverage,
      positionSizeCollateralDelta: (e.collateralDelta ?? 0) * leverage,
      counterTradeCollateralToReturn: 0,
      existingPositionSizeCollateral: e.collateral * e.leverage,
      exceedingPositionSizeCollateral: 0,
      priceImpact,
      ...fees,
    }
  if (e.action === 'TradePositionSizeDecrease')
    return {
      newLeverage: leverage,
      newLiqPrice: 0,
      existingLiqPrice: 0,
      isLeverageUpdate: false,
      existingPnlPercent: 0,
      newCollateralAmount: collateral,
      closingFeeCollateral: 0,
      collateralSentToTrader: -(e.collateralDelta ?? 0) + (e.pnlNet ?? 0),
      pnlToRealizeCollateral: e.pnlNet ?? 0,
      partialNetPnlCollateral: e.pnlNet ?? 0,
      partialRawPnlCollateral: e.pnlNet ?? 0,
      positionSizeCollateralDelta: (e.collateralDelta ?? 0) * leverage,
      availableCollateralInDiamond: 0,
      existingPositionSizeCollateral: e.collateral * e.leverage,
      totalAvailableCollateralInDiamond: 0,
      priceImpact,
      ...fees,
    }
  const closing = e.action.startsWith('TradeClosed')
  return {
    liqPrice: 0,
    amountSentToTrader: closing ? Math.max(0, e.collateral + (e.pnlNet ?? 0)) : 0,
    percentProfit: closing && e.collateral > 0 ? ((e.pnlNet ?? 0) / e.collateral) * 100 : 0,
    priceImpact,
    ...fees,
  }
}
