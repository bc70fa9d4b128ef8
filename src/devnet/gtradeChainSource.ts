import { type Abi, type Address, decodeEventLog, type Hex, type Log, type PublicClient } from 'viem'
import gtradeAbiJson from '../chain/abis/gtradeDiamondReads.json' with { type: 'json' }
import type {
  GtradeHistoryAction,
  GtradeHistoryEvent,
  GtradeOpenTrade,
  GtradeTrade,
  GtradeTradeInfo,
  GtradeTradeSource,
} from './upstreams/gtradeTradeSource.js'

const abi = gtradeAbiJson as Abi

/**
 * gTrade PendingOrderType values carried by LimitExecuted (as the v10 SDK numbers them; UNCERTAIN beyond
 * what the devnet keeper emits).
 */
const LIMIT_ACTIONS: Record<number, GtradeHistoryAction> = {
  2: 'TradeOpenedLimit',
  3: 'TradeOpenedStop',
  4: 'TradeClosedTP',
  5: 'TradeClosedSL',
  6: 'TradeClosedLIQ',
}

interface ExecutedArgs {
  user: Address
  index: number
  t: GtradeTrade
  open?: boolean
  orderType?: number
  oraclePrice: bigint
  marketPrice: bigint
  amountSentToTrader: bigint
  collateralPriceUsd: bigint
}

/**
 * The gTrade backend simulator's data, read from the diamond on the devnet with the real v10 ABI:
 * open trades from getTrades/getTradeInfos, history from MarketExecuted and LimitExecuted logs.
 */
export function gtradeChainSource(client: PublicClient, diamond: Address): GtradeTradeSource {
  return {
    async openTrades(trader) {
      const [trades, infos] = await Promise.all([
        client.readContract({ address: diamond, abi, functionName: 'getTrades', args: [trader] }),
        client.readContract({ address: diamond, abi, functionName: 'getTradeInfos', args: [trader] }),
      ])
      const list = trades as readonly GtradeTrade[]
      const infoList = infos as readonly GtradeTradeInfo[]
      return list.flatMap((trade, i): GtradeOpenTrade[] => {
        const tradeInfo = infoList[i]
        return trade.isOpen && tradeInfo ? [{ trade, tradeInfo }] : []
      })
    },
    async history(trader, cursor, limit) {
      const logs = await client.getLogs({ address: diamond, fromBlock: 0n, toBlock: 'latest' })
      const events = (await Promise.all(logs.map((log) => toEvent(client, log, trader)))).filter(
        (e): e is GtradeHistoryEvent => e !== undefined,
      )
      events.sort((a, b) => b.block - a.block)
      const offset = cursor === undefined ? 0 : Number(cursor)
      const page = events.slice(offset, offset + limit)
      const next = offset + limit < events.length ? String(offset + limit) : undefined
      return { events: page, nextCursor: next }
    },
  }
}

async function toEvent(
  client: PublicClient,
  log: Log,
  trader: Address,
): Promise<GtradeHistoryEvent | undefined> {
  let decoded: { eventName: string; args: unknown }
  try {
    decoded = decodeEventLog({ abi, data: log.data, topics: log.topics }) as {
      eventName: string
      args: unknown
    }
  } catch {
    return undefined // not an executed-order event
  }
  const args = decoded.args as ExecutedArgs
  if (args.user.toLowerCase() !== trader.toLowerCase()) return undefined
  const action =
    decoded.eventName === 'MarketExecuted'
      ? args.open
        ? 'TradeOpenedMarket'
        : 'TradeClosedMarket'
      : LIMIT_ACTIONS[args.orderType ?? -1]
  if (action === undefined || log.blockNumber === null || log.transactionHash === null) return undefined
  const block = await client.getBlock({ blockNumber: log.blockNumber })
  const collateral = Number(args.t.collateralAmount) / 1e6
  const isClose = action.startsWith('TradeClosed')
  return {
    action,
    trader: args.user,
    pairIndex: Number(args.t.pairIndex),
    tradeIndex: Number(args.index),
    long: args.t.long,
    leverage: Number(args.t.leverage) / 1e3,
    price: Number(isClose ? args.marketPrice : args.t.openPrice) / 1e10,
    marketPrice: Number(args.oraclePrice) / 1e10,
    collateral,
    pnlNet: isClose ? Number(args.amountSentToTrader) / 1e6 - collateral : 0,
    collateralIndex: Number(args.t.collateralIndex),
    collateralPriceUsd: Number(args.collateralPriceUsd) / 1e8,
    block: Number(log.blockNumber),
    timestampSec: Number(block.timestamp),
    txHash: log.transactionHash as Hex,
  }
}
