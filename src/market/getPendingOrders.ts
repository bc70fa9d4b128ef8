import type { Address, PublicClient } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { CHAIN_UPSTREAM, multiRead, viewCall } from '../chain/multiRead.js'
import { UpstreamError } from '../errors.js'
import { gtradeWalletAbi } from './gtradeWalletAbi.js'
import { fromAtomic, significant } from './numbers.js'
import { readGtradeTrades } from './readGtradeTrades.js'
import { walletReadCache } from './walletReadCache.js'

const DIAMOND = BASE_ADDRESSES.GtradeDiamond

/** One resting gTrade LIMIT or STOP order: collateral held, no market exposure until it fills. */
export interface PendingOrder {
  /** The trade slot index (what /v1/tx/risk/cancel takes). */
  index: number
  pairIndex: number
  pair: string
  long: boolean
  orderType: 'limit' | 'stop'
  /** The price that fills it (the stored openPrice of a LIMIT/STOP slot). */
  triggerPrice: number
  leverage: number
  /** USDC held by the diamond for the order; all of it returns on cancel. */
  collateralUsdc: number
  /** Position size once filled: collateral × leverage. */
  sizeUsd: number
  tp: number | null
  sl: number | null
  createdBlock: number
  /** The timestamp of createdBlock. */
  createdAt: number
  exposure: 'none'
  /** The inputs of POST /v1/tx/risk/cancel for this order. */
  cancel: { method: 'POST'; path: '/v1/tx/risk/cancel'; body: { index: number; owner: Address } }
}

export interface PendingOrders {
  block: { number: number; timestamp: number }
  orders: PendingOrder[]
}

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
