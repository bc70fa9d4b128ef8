import type { Address, PublicClient } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { CHAIN_UPSTREAM, multiRead, viewCall } from '../chain/multiRead.js'
import { WAD } from '../chain/units.js'
import { UpstreamError } from '../errors.js'
import { findPythFeed } from './findPythFeed.js'
import { gtradeWalletAbi } from './gtradeWalletAbi.js'
import type { MarketData } from './marketData.js'
import { fromAtomic, significant } from './numbers.js'
import { readGtradeTrades } from './readGtradeTrades.js'
import type { SourceStatus } from './sourceStatus.js'

const DIAMOND = BASE_ADDRESSES.GtradeDiamond
/** Fee and spread "P" values are percent x1e10: P / 1e12 is the fraction. */
const P_DENOM = 1e12
/** gTrade caps a trade's profit at +900 % of its collateral. */
const MAX_PROFIT_PCT = 900

/** One open gTrade position (tradeType 0), human units, USDC collateral. */
export const openTrade = z.object({
  /** The trade slot index (what /v1/tx/risk/close|modify take). */
  index: z.number().int(),
  pairIndex: z.number().int(),
  /** "ETH/USD", the diamond's own pairs(pairIndex). */
  pair: z.string(),
  long: z.boolean(),
  /** Human leverage (10 = 10x). */
  leverage: z.number(),
  /** The stored open price. */
  entry: z.number(),
  /** null when none is set (0 onchain). */
  tp: z.number().nullable(),
  sl: z.number().nullable(),
  /** Collateral held by the trade (after the opening fee), USDC. */
  collateralUsdc: z.number(),
  /** collateral × leverage, USDC (= USD at the venue's $1 USDC). */
  sizeUsd: z.number(),
  /** The diamond's own getTradeLiquidationPrice (protocols.md §1 v10 formula), no holding fees added. */
  liquidationPrice: z.number(),
  /** How far the mark may move against the trade before liquidation, percent of the mark; null without a mark. */
  liquidationDistancePct: z.number().nullable(),
  /** The oracle (Pyth) price of the pair: the venue's index for PnL and liquidation; null when unavailable. */
  markPrice: z.number().nullable(),
  /** Unrealized PnL at the mark, before the closing fee and holding fees, capped at +900 %; null without a mark. */
  pnlUsd: z.number().nullable(),
  /** pnlUsd as percent of collateralUsdc; null without a mark. */
  pnlPct: z.number().nullable(),
  /** What a close at the mark would be charged: totalPositionSizeFeeP of the size, USDC. */
  closingFeeUsd: z.number(),
})

export type OpenTrade = z.output<typeof openTrade>

export interface OpenTrades {
  /** The block every chain value was read at. */
  block: { number: number; timestamp: number }
  trades: OpenTrade[]
  /** The mark (Pyth Hermes) feeds: ok, or why markPrice/pnl are null. Chain faults throw instead. */
  mark: SourceStatus
  /** Seconds between the oldest mark used and nowMs; null when no mark was used. */
  markAgeSec: number | null
}

/**
 * The owner's open gTrade positions. Only slots with tradeType 0 (TRADE) and isOpen are positions; resting
 * LIMIT/STOP orders are not (see getPendingOrders). RPC: one multicall for the slots (readGtradeTrades),
 * one at the same block for each pair's name and closing fee and each trade's getTradeLiquidationPrice
 * (the venue's own model, with additionalFeeCollateral 0: holding fees not included, the devnet stand-in
 * has none, and currentPairPrice = the stored open price). The mark is the pair's Pyth price (the perp
 * `index` of /v1/prices), cached 2 s. A chain fault throws UpstreamError; a mark fault leaves the
 * mark-based fields null and is reported in `mark`.
 */
export async function getOpenTrades(
  chain: PublicClient,
  market: MarketData,
  owner: Address,
  nowMs: number,
  atBlock?: bigint,
): Promise<OpenTrades> {
  const { block, slots } = await readGtradeTrades(chain, owner, atBlock)
  const open = slots.filter((s) => s.trade.tradeType === 0)
  if (open.length === 0) return { block, trades: [], mark: { ok: true }, markAgeSec: null }
  const pairIndexes = [...new Set(open.map((s) => s.trade.pairIndex))]
  const feedsLoad = market.pyth.feeds()
  feedsLoad.catch(() => undefined) // awaited below; never an unhandled rejection meanwhile
  const r = await multiRead(
    chain,
    {
      pairs: pairIndexes.map((i) => viewCall(DIAMOND, gtradeWalletAbi, 'pairs', [BigInt(i)])),
      fees: pairIndexes.map((i) =>
        viewCall(DIAMOND, gtradeWalletAbi, 'pairTotalPositionSizeFeeP', [BigInt(i)]),
      ),
      liq: open.map(({ trade, liqParams }) =>
        viewCall(DIAMOND, gtradeWalletAbi, 'getTradeLiquidationPrice', [
          {
            collateralIndex: trade.collateralIndex,
            trader: owner,
            pairIndex: trade.pairIndex,
            index: trade.index,
            openPrice: trade.openPrice,
            long: trade.long,
            collateral: trade.collateralAmount,
            leverage: BigInt(trade.leverage),
            additionalFeeCollateral: 0n,
            liquidationParams: liqParams,
            currentPairPrice: trade.openPrice,
            isCounterTrade: trade.isCounterTrade,
            partialCloseMultiplier: WAD,
            beforeOpened: false,
          },
        ]),
      ),
    },
    BigInt(block.number),
  )
  const pairName = new Map<number, { from: string; to: string } | undefined>()
  const feeP = new Map<number, bigint | undefined>()
  pairIndexes.forEach((i, k) => {
    const p = r.pairs[k]
    pairName.set(i, p === undefined ? undefined : { from: p.from, to: p.to })
    feeP.set(i, r.fees[k])
  })

  let mark: SourceStatus = { ok: true }
  const marks = new Map<number, { price: number; publishTime: number }>()
  try {
    const feeds = await feedsLoad
    const feedOf = new Map<number, string>()
    for (const i of pairIndexes) {
      const name = pairName.get(i)
      const feed = name === undefined ? undefined : findPythFeed(feeds, name.from, name.to)
      if (feed !== undefined) feedOf.set(i, feed.id)
    }
    const latest = await market.pyth.latest([...new Set(feedOf.values())])
    for (const [i, id] of feedOf) {
      const p = latest.get(id)
      if (p !== undefined) marks.set(i, p)
    }
  } catch (err) {
    mark = { ok: false, error: err instanceof Error ? err.message : 'the oracle prices could not be read' }
  }

  let oldest: number | null = null
  const trades = open.map(({ trade }, k): OpenTrade => {
    const name = pairName.get(trade.pairIndex)
    const leverage = trade.leverage / 1e3
    const collateral = fromAtomic(trade.collateralAmount, 6)
    const size = collateral * leverage
    const entry = fromAtomic(trade.openPrice, 10)
    const liq = r.liq[k]
    const fee = feeP.get(trade.pairIndex)
    // Never a made-up 0: a diamond that does not answer these is a chain fault.
    if (liq === undefined || fee === undefined)
      throw new UpstreamError(CHAIN_UPSTREAM, `the perp venue did not price trade ${trade.index}`)
    const liquidationPrice = fromAtomic(liq, 10)
    const m = marks.get(trade.pairIndex)
    let pnlUsd: number | null = null
    let liquidationDistancePct: number | null = null
    if (m !== undefined) {
      oldest = oldest === null ? m.publishTime : Math.min(oldest, m.publishTime)
      const move = trade.long ? m.price - entry : entry - m.price
      pnlUsd = Math.min((size * move) / entry, (collateral * MAX_PROFIT_PCT) / 100)
      liquidationDistancePct =
        ((trade.long ? m.price - liquidationPrice : liquidationPrice - m.price) / m.price) * 100
    }
    return {
      index: trade.index,
      pairIndex: trade.pairIndex,
      pair: name === undefined ? `#${trade.pairIndex}` : `${name.from}/${name.to}`,
      long: trade.long,
      leverage,
      entry,
      tp: trade.tp === 0n ? null : fromAtomic(trade.tp, 10),
      sl: trade.sl === 0n ? null : fromAtomic(trade.sl, 10),
      collateralUsdc: collateral,
      sizeUsd: significant(size),
      liquidationPrice,
      liquidationDistancePct: liquidationDistancePct === null ? null : significant(liquidationDistancePct),
      markPrice: m === undefined ? null : m.price,
      pnlUsd: pnlUsd === null ? null : significant(pnlUsd),
      pnlPct: pnlUsd === null ? null : significant((pnlUsd / collateral) * 100),
      closingFeeUsd: significant((size * Number(fee)) / P_DENOM),
    }
  })
  const markAgeSec = oldest === null ? null : Math.max(0, Math.floor(nowMs / 1000) - oldest)
  return { block, trades, mark, markAgeSec }
}
