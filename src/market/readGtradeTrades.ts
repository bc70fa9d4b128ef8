import type { Address, ContractFunctionReturnType, PublicClient } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { multicall3BlockAbi } from '../chain/lendingAbis.js'
import { CHAIN_UPSTREAM, multiRead, viewCall } from '../chain/multiRead.js'
import { UpstreamError } from '../errors.js'
import { gtradeWalletAbi } from './gtradeWalletAbi.js'

const DIAMOND = BASE_ADDRESSES.GtradeDiamond
const MULTICALL = BASE_ADDRESSES.Multicall3

type GetTrades = ContractFunctionReturnType<typeof gtradeWalletAbi, 'view', 'getTrades'>
type GetTradeInfos = ContractFunctionReturnType<typeof gtradeWalletAbi, 'view', 'getTradeInfos'>
type GetLiqParams = ContractFunctionReturnType<typeof gtradeWalletAbi, 'view', 'getTradesLiquidationParams'>

/** One stored trade slot of the owner with its info and liquidation params (same position in each list). */
export interface GtradeSlot {
  trade: GetTrades[number]
  info: GetTradeInfos[number]
  liqParams: GetLiqParams[number]
}

export interface GtradeSlots {
  /** The block every slot was read at. */
  block: { number: number; timestamp: number }
  /** Open slots only (isOpen): tradeType 0 = a position, 1 LIMIT / 2 STOP = a resting order. */
  slots: GtradeSlot[]
}

/**
 * The owner's open gTrade slots in ONE multicall at one block (`block`, else the latest): getTrades, getTradeInfos and
 * getTradesLiquidationParams (parallel lists, open slots only, in slot order) plus the block's number and
 * timestamp. A fault of the chain, or a diamond that does not answer, is an UpstreamError (502).
 */
export async function readGtradeTrades(
  chain: PublicClient,
  owner: Address,
  block?: bigint,
): Promise<GtradeSlots> {
  const r = await multiRead(
    chain,
    {
      trades: [viewCall(DIAMOND, gtradeWalletAbi, 'getTrades', [owner])],
      infos: [viewCall(DIAMOND, gtradeWalletAbi, 'getTradeInfos', [owner])],
      liq: [viewCall(DIAMOND, gtradeWalletAbi, 'getTradesLiquidationParams', [owner])],
      number: [viewCall(MULTICALL, multicall3BlockAbi, 'getBlockNumber', [])],
      time: [viewCall(MULTICALL, multicall3BlockAbi, 'getCurrentBlockTimestamp', [])],
    },
    block,
  )
  const trades = r.trades[0]
  const infos = r.infos[0]
  const liq = r.liq[0]
  const number = r.number[0]
  const time = r.time[0]
  if (
    trades === undefined ||
    infos === undefined ||
    liq === undefined ||
    number === undefined ||
    time === undefined
  )
    throw new UpstreamError(CHAIN_UPSTREAM, 'the perp venue did not answer getTrades/getTradeInfos')
  const slots = trades.flatMap((trade, i): GtradeSlot[] => {
    const info = infos[i]
    const liqParams = liq[i]
    return trade.isOpen && info !== undefined && liqParams !== undefined ? [{ trade, info, liqParams }] : []
  })
  return { block: { number: Number(number), timestamp: Number(time) }, slots }
}
