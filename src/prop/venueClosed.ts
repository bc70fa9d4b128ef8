import { type Abi, type Address, type PublicClient, parseAbi } from 'viem'
import { riskDiamondAbi } from '../builders/risk/riskAbi.js'
import gtradeAbiJson from '../chain/abis/gtradeDiamondReads.json' with { type: 'json' }
import { BASE_ADDRESSES } from '../chain/addresses.js'
import type { OpenPositionRow } from '../store/propBook.js'

const executedEvent = (gtradeAbiJson as Abi).find(
  (item) => item.type === 'event' && item.name === 'MarketExecuted',
) as Extract<Abi[number], { type: 'event' }> | undefined
const tradesAbi = parseAbi([
  'struct Trade { address user; uint32 index; uint16 pairIndex; uint24 leverage; bool long; bool isOpen; uint8 collateralIndex; uint8 tradeType; uint120 collateralAmount; uint64 openPrice; uint64 tp; uint64 sl; bool isCounterTrade; uint160 positionSizeToken; uint24 __placeholder; }',
  'function getTrades(address _trader) view returns (Trade[])',
])

/**
 * The desk's positions in the book that are no longer open at the venue, read at one block: an executed
 * open whose MARKET order was filled (its `MarketExecuted`) into a trade the desk no longer holds (closed by
 * a desk close, a TP, an SL or a liquidation), or whose order is neither filled nor pending (the venue
 * cancelled it: slippage, a timeout). Only the venue's word closes a position: a desk close that is queued
 * but not filled, or in flight, leaves it open. Opens not executed yet (claimed, submitted) stay open.
 * Three reads whatever the number of rows: the desk's fills since the oldest open, its open trades and its
 * pending orders, all at the same block so that no fill falls between them.
 */
/** The trade index recorded for an open whose MARKET order the venue cancelled: it never opened. */
export const CANCELLED_ORDER = -1
/** Blocks under the head before a fill or a cancellation is recorded for good (12.8 s at 200 ms). */
const RECORD_DEPTH_BLOCKS = 64n

export async function venueClosed(
  chain: PublicClient,
  desk: Address,
  rows: readonly OpenPositionRow[],
  recordFill?: (id: number, tradeIndex: number) => Promise<void>,
): Promise<number[]> {
  const executed = rows.flatMap((row) => {
    if (row.status !== 'executed') return []
    const position = row.result?.position as
      | { orderIndex?: number | null; openBlock?: number | null; tradeIndex?: number | null }
      | undefined
    if (position?.orderIndex == null || position.openBlock == null) return []
    const { orderIndex, tradeIndex } = position
    return [{ id: row.id, orderIndex, openBlock: BigInt(position.openBlock), tradeIndex }]
  })
  if (executed.length === 0) return []
  if (executedEvent === undefined) throw new Error('the gTrade ABI has no MarketExecuted event')
  // The head now, never a cached one: a head read before an open's own block would find its order neither
  // filled nor pending (and call it closed).
  const blockNumber = await chain.getBlockNumber({ cacheTime: 0 })
  // The fills still unknown are searched from the oldest such open's block (fills come within seconds, and
  // each found is recorded): a position open for weeks costs no log range at 432,000 blocks a day.
  const unfilled = executed.filter((r) => r.tradeIndex == null && r.openBlock <= blockNumber)
  // biome-ignore lint/complexity/useMathMinMax: bigints (Math.min takes numbers)
  const fromBlock = unfilled.reduce((min, r) => (r.openBlock < min ? r.openBlock : min), blockNumber)
  const diamond = BASE_ADDRESSES.GtradeDiamond
  const [logs, trades, pending] = await Promise.all([
    unfilled.length === 0
      ? []
      : chain.getLogs({
          address: diamond,
          event: executedEvent,
          args: { user: desk },
          fromBlock,
          toBlock: blockNumber,
        }),
    chain.readContract({
      address: diamond,
      abi: tradesAbi,
      functionName: 'getTrades',
      args: [desk],
      blockNumber,
    }),
    chain.readContract({
      address: diamond,
      abi: riskDiamondAbi,
      functionName: 'getPendingOrders',
      args: [desk],
      blockNumber,
    }),
  ])
  const fills = new Map<number, { trade: number; block: bigint }>()
  for (const log of logs) {
    const args = (log as unknown as { args: { orderId: { index: number }; index: number; open: boolean } })
      .args
    if (args.open) fills.set(args.orderId.index, { trade: args.index, block: log.blockNumber ?? blockNumber })
  }
  const openTrades = new Set(trades.filter((t) => t.isOpen).map((t) => t.index))
  const pendingOrders = new Set(pending.filter((o) => o.isOpen).map((o) => o.index))
  // Recorded only once settled deep enough that a reorg of the head cannot reorder it: a fill, or an order
  // neither filled nor pending (the venue cancelled it: CANCELLED_ORDER, closed for good).
  const settled = (block: bigint) => block + RECORD_DEPTH_BLOCKS <= blockNumber
  await Promise.all(
    unfilled.flatMap((r) => {
      if (recordFill === undefined) return []
      const fill = fills.get(r.orderIndex)
      if (fill !== undefined) return settled(fill.block) ? [recordFill(r.id, fill.trade)] : []
      const cancelled = !pendingOrders.has(r.orderIndex) && settled(r.openBlock)
      return cancelled ? [recordFill(r.id, CANCELLED_ORDER)] : []
    }),
  )
  return executed.flatMap((r) => {
    // Opened after the block read (a node behind the one that mined it): open, whatever it reads.
    if (r.openBlock > blockNumber) return []
    if (r.tradeIndex === CANCELLED_ORDER) return [r.id]
    const trade = r.tradeIndex ?? fills.get(r.orderIndex)?.trade
    const open = trade === undefined ? pendingOrders.has(r.orderIndex) : openTrades.has(trade)
    return open ? [] : [r.id]
  })
}
