import type { GtradeHistoryRecord } from './upstreams/gtradeHistory.js'

export type CloseReason = 'take-profit' | 'stop-loss' | 'liquidation' | 'manual'

/** One closed gTrade trade: its close event paired with its open event. */
export interface RoundTrip {
  pair: { base: string; quote: string }
  side: 'long' | 'short'
  leverage: number
  /** Collateral at open (the open record's size; the close record's when the open was not found). */
  collateralUsdc: number
  /** null when the open event was not found within the lookup bound. */
  openPrice: number | null
  closePrice: number
  /** Realized net PnL (the close record's pnl_net); null when the backend sent none. */
  pnlUsd: number | null
  /** pnlUsd as percent of collateralUsdc. */
  pnlPct: number | null
  closeReason: CloseReason
  tradeIndex: number
  openTx: `0x${string}` | null
  closeTx: `0x${string}`
  openedAt: number | null
  closedAt: number
  /** The stop at open; the history records carry none, so null (stats then uses R = collateral). */
  sl: number | null
}

const REASONS: Record<string, CloseReason> = {
  TradeClosedTP: 'take-profit',
  TradeClosedSL: 'stop-loss',
  TradeClosedLIQ: 'liquidation',
  TradeClosedMarket: 'manual',
}

const keyOf = (r: GtradeHistoryRecord) => `${r.pair}#${r.tradeIndex}`

/**
 * Pure: round trips from history records (newest first). Each close (TradeClosedMarket/TP/SL/LIQ) is
 * paired with the newest open (TradeOpenedMarket/Limit/Stop) of the same pair and tradeIndex at or before
 * the close's block, looked up in `records` then `lookup` (older records fetched only to find opens).
 * Opens without a close (still open, or closed on a newer page) and leverage/size updates are not round
 * trips. Output keeps the closes' order (newest first).
 */
export function pairRoundTrips(
  records: readonly GtradeHistoryRecord[],
  lookup: readonly GtradeHistoryRecord[] = [],
): RoundTrip[] {
  const opens = new Map<string, GtradeHistoryRecord[]>()
  for (const r of [...records, ...lookup]) {
    if (!r.action.startsWith('TradeOpened')) continue
    const list = opens.get(keyOf(r)) ?? []
    list.push(r)
    opens.set(keyOf(r), list)
  }
  return records.flatMap((close): RoundTrip[] => {
    const reason = REASONS[close.action]
    if (reason === undefined) return []
    const open = (opens.get(keyOf(close)) ?? [])
      .filter((o) => o.block <= close.block)
      .sort((a, b) => b.block - a.block)[0]
    const [base = close.pair, quote = ''] = close.pair.split('/')
    const collateral = open?.size ?? close.size
    const pnl = close.pnlNet
    return [
      {
        pair: { base, quote },
        side: close.long ? 'long' : 'short',
        leverage: open?.leverage ?? close.leverage,
        collateralUsdc: collateral,
        openPrice: open?.price ?? null,
        closePrice: close.price,
        pnlUsd: pnl,
        pnlPct: pnl === null || collateral === 0 ? null : Number(((pnl / collateral) * 100).toPrecision(10)),
        closeReason: reason,
        tradeIndex: close.tradeIndex,
        openTx: open?.tx ?? null,
        closeTx: close.tx,
        openedAt: open?.time ?? null,
        closedAt: close.time,
        sl: null,
      },
    ]
  })
}
