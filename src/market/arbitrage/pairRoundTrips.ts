import { z } from 'zod'
import { unixSeconds } from '../../chain/fields.js'
import type { GtradeHistoryRecord } from '../upstreams/gtradeHistory.js'

export const closeReason = z
  .enum(['take-profit', 'stop-loss', 'liquidation', 'manual'])
  .describe('From the close action: TradeClosedTP, TradeClosedSL, TradeClosedLIQ, TradeClosedMarket')

export type CloseReason = z.output<typeof closeReason>

/** One closed gTrade trade: its close event paired with its open event. */
export const roundTrip = z.object({
  pair: z.object({ base: z.string(), quote: z.string() }),
  side: z.enum(['long', 'short']),
  leverage: z.number(),
  collateralUsdc: z.number().describe('Collateral at open, USDC'),
  openPrice: z.number().nullable().describe('null when the open event was not found (see description)'),
  closePrice: z.number(),
  pnlUsd: z
    .number()
    .nullable()
    .describe('Realized net PnL (pnl_net, after fees); null if the backend sent none'),
  pnlPct: z.number().nullable().describe('pnlUsd / collateralUsdc × 100; null with pnlUsd'),
  closeReason,
  tradeIndex: z.number().int(),
  openTx: z.string().nullable().describe('null when the open event was not found'),
  closeTx: z.string(),
  openedAt: unixSeconds.nullable(),
  closedAt: unixSeconds,
  sl: z.number().nullable().describe('Stop at open; null: the history records do not carry it'),
})

export type RoundTrip = z.output<typeof roundTrip>

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
