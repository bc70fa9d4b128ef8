import {
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionReturnType,
  erc20Abi,
  type PublicClient,
} from 'viem'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { CHAIN_UPSTREAM, multiRead, viewCall } from '../../chain/multiRead.js'
import { UpstreamError } from '../../errors.js'
import { BuildRefusedError } from '../builderErrors.js'
import { required } from '../required.js'
import { riskDiamondAbi } from './riskAbi.js'

const DIAMOND = BASE_ADDRESSES.GtradeDiamond
const USDC = BASE_ADDRESSES.USDC

/** USDC as the step descriptions name it. */
export const USDC_TOKEN = { address: USDC, symbol: 'USDC', decimals: 6 } as const

export type RiskTrade = ContractFunctionReturnType<typeof riskDiamondAbi, 'view', 'getTrade'>
export type RiskPendingOrder = ContractFunctionReturnType<
  typeof riskDiamondAbi,
  'view',
  'getPendingOrders'
>[number]
export type RiskLiqParams = ContractFunctionReturnType<
  typeof riskDiamondAbi,
  'view',
  'getPairLiquidationParams'
>

/** A pair's live trading parameters, in the venue's units. */
export interface RiskPair {
  pairIndex: number
  /** "BTC/USD". */
  name: string
  /** Percent x1e10, for this trader. */
  spreadP: bigint
  /** x1e3. */
  minLeverage: bigint
  maxLeverage: bigint
  /** USD 1e18. */
  minPositionUsd: bigint
  /** Percent x1e10 of the position size, charged on open and on close. */
  feeP: bigint
  liqParams: RiskLiqParams
}

/** The owner's USDC and its allowance to the diamond. */
export interface RiskWallet {
  allowance: bigint
  balance: bigint
}

function pairCalls(owner: Address, pairIndex: number) {
  const i = BigInt(pairIndex)
  return {
    pair: [viewCall(DIAMOND, riskDiamondAbi, 'pairs', [i])],
    maxLeverage: [viewCall(DIAMOND, riskDiamondAbi, 'pairMaxLeverage', [i])],
    minLeverage: [viewCall(DIAMOND, riskDiamondAbi, 'pairMinLeverage', [i])],
    minPosition: [viewCall(DIAMOND, riskDiamondAbi, 'pairMinPositionSizeUsd', [i])],
    feeP: [viewCall(DIAMOND, riskDiamondAbi, 'pairTotalPositionSizeFeeP', [i])],
    spreadP: [viewCall(DIAMOND, riskDiamondAbi, 'pairSpreadP', [owner, i])],
    liqParams: [viewCall(DIAMOND, riskDiamondAbi, 'getPairLiquidationParams', [i])],
  } as const
}

function walletCalls(owner: Address) {
  return {
    allowance: [viewCall(USDC, erc20Abi, 'allowance', [owner, DIAMOND])],
    balance: [viewCall(USDC, erc20Abi, 'balanceOf', [owner])],
  } as const
}

/**
 * A pair's parameters and the owner's USDC in ONE multicall. `pairs(i)` reverts past the pair list: that
 * is the caller's pairIndex, a 422 naming it, not a chain fault.
 */
export async function readRiskPair(
  chain: PublicClient,
  owner: Address,
  pairIndex: number,
): Promise<RiskPair & RiskWallet> {
  const r = await multiRead(chain, { ...pairCalls(owner, pairIndex), ...walletCalls(owner) })
  const pair = r.pair[0]
  if (pair === undefined)
    throw new BuildRefusedError(
      'unknown_pair',
      `The perp venue lists no pair ${pairIndex} (GET /v1/risk/pairs lists them).`,
      'pairIndex',
      { pairIndex },
    )
  return {
    pairIndex,
    name: `${pair.from}/${pair.to}`,
    spreadP: required(r.spreadP[0], `pairSpreadP(${pairIndex})`),
    minLeverage: required(r.minLeverage[0], `pairMinLeverage(${pairIndex})`),
    maxLeverage: required(r.maxLeverage[0], `pairMaxLeverage(${pairIndex})`),
    minPositionUsd: required(r.minPosition[0], `pairMinPositionSizeUsd(${pairIndex})`),
    feeP: required(r.feeP[0], `pairTotalPositionSizeFeeP(${pairIndex})`),
    liqParams: required(r.liqParams[0], `getPairLiquidationParams(${pairIndex})`),
    allowance: required(r.allowance[0], 'the USDC allowance to the perp venue'),
    balance: required(r.balance[0], 'the owner USDC balance'),
  }
}

/** A trade slot of the owner, the owner's queued market orders and USDC, in ONE multicall. */
export interface RiskTradeState extends RiskWallet {
  /** The slot as stored; `isOpen` false when it never existed or was closed or cancelled. */
  trade: RiskTrade
  pending: readonly RiskPendingOrder[]
}

export async function readRiskTrade(
  chain: PublicClient,
  owner: Address,
  index: number,
): Promise<RiskTradeState> {
  const r = await multiRead(chain, {
    trade: [viewCall(DIAMOND, riskDiamondAbi, 'getTrade', [owner, index])],
    pending: [viewCall(DIAMOND, riskDiamondAbi, 'getPendingOrders', [owner])],
    ...walletCalls(owner),
  })
  return {
    trade: required(r.trade[0], `getTrade(${owner}, ${index})`),
    pending: required(r.pending[0], `getPendingOrders(${owner})`),
    allowance: required(r.allowance[0], 'the USDC allowance to the perp venue'),
    balance: required(r.balance[0], 'the owner USDC balance'),
  }
}

/** The queued market orders (close, leverage, size) already waiting on trade `index`. */
export function pendingOn(pending: readonly RiskPendingOrder[], index: number): RiskPendingOrder[] {
  // A queued open carries trade.index 0 for a trade not yet stored: only orders on existing trades count.
  return pending.filter((o) => o.isOpen && o.orderType !== 0 && o.trade.index === index)
}

export type LiqPriceInput = ContractFunctionArgs<typeof riskDiamondAbi, 'view', 'getTradeLiquidationPrice'>[0]

/**
 * The venue's own liquidation price for a trade as it would be stored (1e10): its model (thresholds, fees,
 * spread) rather than a copy of it. A second read after the pair's: its inputs need the pair's fee.
 */
export async function readLiquidationPrice(chain: PublicClient, input: LiqPriceInput): Promise<bigint> {
  try {
    return await chain.readContract({
      address: DIAMOND,
      abi: riskDiamondAbi,
      functionName: 'getTradeLiquidationPrice',
      args: [input],
    })
  } catch (err) {
    throw new UpstreamError(CHAIN_UPSTREAM, 'getTradeLiquidationPrice could not be read', { cause: err })
  }
}
