import type { Address, PublicClient } from 'viem'
import { riskDiamondAbi } from '../builders/riskAbi.js'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import type { OpenPositionRow } from '../store/propBook.js'
import { findFill } from './gtradeOrders.js'

/**
 * The desk's open positions in the book that the venue itself has closed (a TP, SL or liquidation filled
 * by its keeper): each executed open's fill is looked up (its `MarketExecuted`) and its trade read from
 * the diamond. An open not filled yet, or still in flight, stays open. Reads only; one log query and one
 * call per executed open position.
 */
export async function venueClosed(
  chain: PublicClient,
  desk: Address,
  rows: readonly OpenPositionRow[],
): Promise<number[]> {
  const checked = await Promise.all(
    rows.map(async (row) => {
      if (row.status !== 'executed') return undefined
      const position = row.result?.position as
        | { orderIndex?: number | null; openBlock?: number | null }
        | undefined
      if (position?.orderIndex == null || position.openBlock == null) return undefined
      const index = await findFill(chain, desk, position.orderIndex, BigInt(position.openBlock))
      if (index === undefined) return undefined
      const trade = await chain.readContract({
        address: BASE_ADDRESSES.GtradeDiamond,
        abi: riskDiamondAbi,
        functionName: 'getTrade',
        args: [desk, index],
      })
      return trade.isOpen ? undefined : row.id
    }),
  )
  return checked.filter((id): id is number => id !== undefined)
}
