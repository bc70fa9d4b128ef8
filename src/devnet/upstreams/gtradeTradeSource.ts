import type { Address, Hex } from 'viem'

/**
 * What the gTrade backend simulator needs from the chain. The devnet gTrade stand-in contract (built
 * elsewhere) implements this by reading `getTrades` / `getTradeInfos` and its close events; the
 * simulator only formats, so it never invents a position.
 */
export interface GtradeTradeSource {
  /** Open trades of one trader, as the diamond's getTrades/getTradeInfos return them. */
  openTrades(trader: Address): Promise<readonly GtradeOpenTrade[]>
  /**
   * One page of the trader's trade events, newest first. `cursor` is opaque: undefined for the first
   * page, then whatever the previous page returned as nextCursor.
   */
  history(trader: Address, cursor: string | undefined, limit: number): Promise<GtradeHistoryPage>
  /** Optional: real onchain open interest per pairIndex (collateral units), added to the synthetic crowd. */
  pairOpenInterest?(): Promise<ReadonlyMap<number, { long: bigint; short: bigint }>>
}

/** ITradingStorage.Trade (v10), with viem's decoded types. */
export interface GtradeTrade {
  user: Address
  index: number
  pairIndex: number
  /** x1e3 */
  leverage: number
  long: boolean
  isOpen: boolean
  collateralIndex: number
  /** 0 TRADE, 1 LIMIT, 2 STOP */
  tradeType: number
  /** collateral decimals (USDC: 6) */
  collateralAmount: bigint
  /** x1e10 */
  openPrice: bigint
  tp: bigint
  sl: bigint
  isCounterTrade: boolean
  positionSizeToken: bigint
}

/** ITradingStorage.TradeInfo. */
export interface GtradeTradeInfo {
  createdBlock: number
  tpLastUpdatedBlock: number
  slLastUpdatedBlock: number
  /** x1e3 percent */
  maxSlippageP: number
  lastOiUpdateTs: number
  /** x1e8 */
  collateralPriceUsd: bigint
  contractsVersion: number
  lastPosIncreaseBlock: number
}

export interface GtradeOpenTrade {
  trade: GtradeTrade
  tradeInfo: GtradeTradeInfo
}

/**
 * Backend history action names. UNCERTAIN: @gainsnetwork/sdk 1.8.7 lists none of them; third-party readers of
 * the backend spell the size changes `TradePosSizeIncrease`/`Decrease`; the full set is larger.
 */
export type GtradeHistoryAction =
  | 'TradeOpenedMarket'
  | 'TradeOpenedLimit'
  | 'TradeOpenedStop'
  | 'TradeClosedMarket'
  | 'TradeClosedTP'
  | 'TradeClosedSL'
  | 'TradeClosedLIQ'
  | 'TradeLeverageUpdate'
  | 'TradePositionSizeIncrease'
  | 'TradePositionSizeDecrease'

/** One trade event in human units, as the chain reader decodes it. */
export interface GtradeHistoryEvent {
  action: GtradeHistoryAction
  trader: Address
  pairIndex: number
  tradeIndex: number
  long: boolean
  /** Human leverage, e.g. 10. */
  leverage: number
  /** Execution price, human. */
  price: number
  /** Oracle price at execution, human. */
  marketPrice: number
  /** Position collateral in collateral units (human USDC). */
  collateral: number
  /** Realised net PnL in collateral (human); 0 for opens. */
  pnlNet: number
  collateralIndex: number
  collateralPriceUsd: number
  block: number
  timestampSec: number
  txHash: Hex
  collateralDelta?: number
  leverageDelta?: number
  isCounterTrade?: boolean
}

export interface GtradeHistoryPage {
  events: readonly GtradeHistoryEvent[]
  /** Undefined when there is nothing after this page. */
  nextCursor: string | undefined
}
