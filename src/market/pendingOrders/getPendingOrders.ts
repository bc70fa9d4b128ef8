import type { Address, PublicClient } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { address, unixSeconds } from '../../chain/fields.js'
import { CHAIN_UPSTREAM, multiRead, viewCall } from '../../chain/multiRead.js'
import { UpstreamError } from '../../errors.js'
import { gtradeWalletAbi } from '../gtradeWalletAbi.js'
import { fromAtomic, significant } from '../numbers.js'
import { readGtradeTrades } from '../readGtradeTrades.js'
import { sourceStatus } from '../sourceStatus.js'
import { walletReadCache } from '../walletReadCache.js'

const DIAMOND = BASE_ADDRESSES.GtradeDiamond

const gtradeReadAt = z
  .object({ number: z.number().int().nonnegative(), timestamp: unixSeconds })
  .describe('The block every chain value was read at (live, not cached)')

/** What the read answers (the route's output schema). */
export const pendingOrdersOutput = z.object({
  address,
  block: gtradeReadAt,
  orders: z.array(
    z.object({
      index: z.number().int().describe('The trade slot index'),
      pairIndex: z.number().int(),
      pair: z.string().describe('"ETH/USD", from the diamond’s pairs(pairIndex)'),
      long: z.boolean(),
      orderType: z.enum(['limit', 'stop']),
      triggerPrice: z.number().describe('The price that fills the order (stored openPrice)'),
      leverage: z.number(),
      collateralUsdc: z.number().describe('USDC held for the order; all of it returns on cancel'),
      sizeUsd: z.number().describe('collateral × leverage once filled'),
      tp: z.number().nullable().describe('Take-profit; null when none is set'),
      sl: z.number().nullable().describe('Stop-loss; null when none is set'),
      createdBlock: z.number().int().nonnegative(),
      createdAt: unixSeconds.describe('Timestamp of createdBlock'),
      exposure: z.literal('none').describe('A resting order has no market exposure until it fills'),
      cancel: z
        .object({
          method: z.literal('POST'),
          path: z.literal('/v1/tx/risk/cancel'),
          body: z.object({ index: z.number().int(), owner: address }),
        })
        .describe('The request that builds the cancel transaction for this order'),
    }),
  ),
  sources: z.object({ chain: sourceStatus }),
})

export type PendingOrder = PendingOrders['orders'][number]
export type PendingOrders = Omit<z.output<typeof pendingOrdersOutput>, 'address' | 'sources'>

/**
 * The owner's resting gTrade LIMIT (tradeType 1) and STOP (2) orders: open slots of getTrades that are not
 * positions. RPC: one multicall (readGtradeTrades), then at the same block one multicall for the pair
 * names alongside the creation blocks' headers (concurrent requests). A chain fault is an UpstreamError.
 */
export function getPendingOrders(chain: PublicClient, owner: Address): Promise<PendingOrders> {
  return cache(chain, owner, (head) => readPendingOrders(chain, owner, head))
}

const cache = walletReadCache<PendingOrders>()

async function readPendingOrders(
  chain: PublicClient,
  owner: Address,
  head: bigint | undefined,
): Promise<PendingOrders> {
  const { block, slots } = await readGtradeTrades(chain, owner, head)
  const resting = slots.filter((s) => s.trade.tradeType === 1 || s.trade.tradeType === 2)
  if (resting.length === 0) return { block, orders: [] }
  const pairIndexes = [...new Set(resting.map((s) => s.trade.pairIndex))]
  const createdBlocks = [...new Set(resting.map((s) => s.info.createdBlock))]
  const [r, headers] = await Promise.all([
    multiRead(
      chain,
      { pairs: pairIndexes.map((i) => viewCall(DIAMOND, gtradeWalletAbi, 'pairs', [BigInt(i)])) },
      BigInt(block.number),
    ),
    Promise.all(
      createdBlocks.map(async (n) => {
        try {
          const header = await chain.getBlock({ blockNumber: BigInt(n) })
          return [n, Number(header.timestamp)] as const
        } catch (err) {
          throw new UpstreamError(CHAIN_UPSTREAM, `block ${n} could not be read`, { cause: err })
        }
      }),
    ),
  ])
  const pairName = new Map(
    pairIndexes.map((i, k) => {
      const p = r.pairs[k]
      return [i, p === undefined ? `#${i}` : `${p.from}/${p.to}`] as const
    }),
  )
  const timeOf = new Map(headers)
  const orders = resting.map(({ trade, info }): PendingOrder => {
    const leverage = trade.leverage / 1e3
    const collateral = fromAtomic(trade.collateralAmount, 6)
    return {
      index: trade.index,
      pairIndex: trade.pairIndex,
      pair: pairName.get(trade.pairIndex) ?? `#${trade.pairIndex}`,
      long: trade.long,
      orderType: trade.tradeType === 1 ? 'limit' : 'stop',
      triggerPrice: fromAtomic(trade.openPrice, 10),
      leverage,
      collateralUsdc: collateral,
      sizeUsd: significant(collateral * leverage),
      tp: trade.tp === 0n ? null : fromAtomic(trade.tp, 10),
      sl: trade.sl === 0n ? null : fromAtomic(trade.sl, 10),
      createdBlock: info.createdBlock,
      createdAt: timeOf.get(info.createdBlock) as number, // every created block was read above
      exposure: 'none',
      cancel: { method: 'POST', path: '/v1/tx/risk/cancel', body: { index: trade.index, owner } },
    }
  })
  return { block, orders }
}
