import { type Address, encodeFunctionData, formatUnits, zeroAddress } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { USDC_DECIMALS, WAD } from '../chain/units.js'
import { InvalidInputError } from '../errors.js'
import { approveIfShort } from './approveIfShort.js'
import { BUILD_TTL_SEC, type BuilderEngine } from './builderEngine.js'
import { assertBalance, BuildRefusedError } from './builderErrors.js'
import { riskDiamondAbi, USDC_COLLATERAL_INDEX } from './riskAbi.js'
import { assertLeverageInRange, human, humanPrice, VENUE_NAME } from './riskFields.js'
import {
  fillPrice,
  LEVERAGE_DECIMALS,
  PRICE_DECIMALS,
  positionFee,
  positionSize,
  SLIPPAGE_DECIMALS,
  scaled,
  tpSlProblem,
  triggerProblem,
} from './riskMath.js'
import { type RiskPair, readLiquidationPrice, readRiskPair, USDC_TOKEN } from './riskState.js'
import { tokenLabel } from './tokenLabel.js'
import type { BuilderEnvelope, TxStep } from './txStep.js'

export interface RiskOpenBody {
  pairIndex: number
  long: boolean
  leverage: number
  collateralUsdc: number
  markPrice: number
  owner: string
  tradeType: 0 | 1 | 2
  triggerPrice?: number | undefined
  tp?: number | undefined
  sl?: number | undefined
  slippagePct: number
}

export interface RiskOpenAction {
  type: 'riskOpen'
  pairIndex: number
  pair: string
  long: boolean
  tradeType: 0 | 1 | 2
  leverage: number
  /** Atomic USDC pulled from the owner. */
  collateral: string
  /** Atomic USDC: collateral × leverage. */
  positionSize: string
  /** The order's price: the mark (MARKET: the slippage reference) or the trigger (LIMIT/STOP). */
  orderPrice: number
  /** MARKET: the mark moved half the pair spread against the trader; LIMIT/STOP: the trigger. */
  expectedOpenPrice: number
  /** Atomic USDC: the opening fee the venue deducts from the collateral at the fill. */
  openingFee: string
  collateralAfterFee: string
  /** The venue's own getTradeLiquidationPrice for the trade as expected to fill. */
  liquidationPrice: number
  tp: number
  sl: number
  /** Percent x1e3, as encoded. */
  maxSlippageP: number
}

const TYPE_NAME = ['MARKET', 'LIMIT', 'STOP'] as const

/** The v10 15-field Trade of a new order: index, positionSizeToken and the placeholder are 0. */
export function encodeRiskOpen(p: {
  owner: Address
  pair: RiskPair
  long: boolean
  leverage: bigint
  collateral: bigint
  tradeType: 0 | 1 | 2
  openPrice: bigint
  tp: bigint
  sl: bigint
  maxSlippageP: number
}): TxStep {
  const trade = {
    user: p.owner,
    index: 0,
    pairIndex: p.pair.pairIndex,
    leverage: Number(p.leverage),
    long: p.long,
    isOpen: true,
    collateralIndex: USDC_COLLATERAL_INDEX,
    tradeType: p.tradeType,
    collateralAmount: p.collateral,
    openPrice: p.openPrice,
    tp: p.tp,
    sl: p.sl,
    isCounterTrade: false,
    positionSizeToken: 0n,
    __placeholder: 0,
  }
  const extras = [
    p.tradeType === 0 ? '' : ` at ${humanPrice(p.openPrice)}`,
    p.tp === 0n ? '' : `, TP ${humanPrice(p.tp)}`,
    p.sl === 0n ? '' : `, SL ${humanPrice(p.sl)}`,
  ].join('')
  const kind = p.tradeType === 0 ? 'Open' : `Place a ${TYPE_NAME[p.tradeType]} order:`
  return {
    to: BASE_ADDRESSES.GtradeDiamond,
    data: encodeFunctionData({
      abi: riskDiamondAbi,
      functionName: 'openTrade',
      args: [trade, p.maxSlippageP, zeroAddress],
    }),
    value: 0n,
    description: `${kind} ${p.pair.name} ${p.long ? 'long' : 'short'} ${formatUnits(p.leverage, LEVERAGE_DECIMALS)}x, ${tokenLabel(p.collateral, USDC_TOKEN)}${extras}`,
  }
}

/** A human price as the venue will hold it: rounded to 1e10 (what the side checks must compare). */
const encodedPrice = (value: number): number => humanPrice(scaled(value, PRICE_DECIMALS))

/**
 * Refusals that need no chain read: sides of the trigger, TP and SL (400 naming the field), on the prices
 * as encoded, so a TP a rounding above the entry (equal to it at 1e10) is refused here, not by the venue.
 */
function checkSides(body: RiskOpenBody): void {
  const mark = encodedPrice(body.markPrice)
  const trigger = body.tradeType === 0 ? mark : encodedPrice(body.triggerPrice as number)
  if (body.tradeType !== 0) {
    const problem = triggerProblem(body.tradeType, body.long, trigger, mark)
    if (problem) throw new InvalidInputError(problem.field, `${problem.field} ${problem.message}`)
  }
  const tp = body.tp === undefined ? undefined : encodedPrice(body.tp)
  const sl = body.sl === undefined ? undefined : encodedPrice(body.sl)
  const problem = tpSlProblem(body.long, trigger, tp, sl)
  if (problem) throw new InvalidInputError(problem.field, `${problem.field} ${problem.message}`)
}

export async function buildRiskOpen(
  engine: BuilderEngine,
  body: RiskOpenBody,
): Promise<BuilderEnvelope<RiskOpenAction>> {
  checkSides(body)
  const owner = body.owner as Address
  const quotedAt = engine.nowSec()
  const pair = await readRiskPair(engine.chain, owner, body.pairIndex)
  const leverage = scaled(body.leverage, LEVERAGE_DECIMALS)
  assertLeverageInRange(pair, leverage, 'leverage')
  const collateral = scaled(body.collateralUsdc, USDC_DECIMALS)
  const size = positionSize(collateral, leverage)
  // The venue values USDC collateral at $1 here: size (6 dp) × 1e12 is USD 1e18.
  if (size * 10n ** 12n < pair.minPositionUsd) {
    const minUsd = Number(formatUnits(pair.minPositionUsd, 18))
    throw new BuildRefusedError(
      'position_below_minimum',
      `collateralUsdc × leverage is ${human(size, USDC_DECIMALS)} USD; ${pair.name} needs a position of at ` +
        `least ${minUsd} USD (${Math.ceil((minUsd / body.leverage) * 1e6) / 1e6} USDC at ${body.leverage}x).`,
      'collateralUsdc',
      { minPositionUsd: minUsd },
    )
  }
  assertBalance('collateralUsdc', USDC_TOKEN, pair.balance, collateral)
  const mark = scaled(body.markPrice, PRICE_DECIMALS)
  const orderPrice = body.tradeType === 0 ? mark : scaled(body.triggerPrice as number, PRICE_DECIMALS)
  const expectedOpen = body.tradeType === 0 ? fillPrice(mark, pair.spreadP, body.long, true) : orderPrice
  const openingFee = positionFee(size, pair.feeP)
  const collateralAfterFee = collateral - openingFee
  const liquidationPrice = await readLiquidationPrice(engine.chain, {
    collateralIndex: USDC_COLLATERAL_INDEX,
    trader: owner,
    pairIndex: pair.pairIndex,
    index: 0,
    openPrice: expectedOpen,
    long: body.long,
    collateral: collateralAfterFee,
    leverage,
    additionalFeeCollateral: 0n,
    liquidationParams: pair.liqParams,
    currentPairPrice: mark,
    isCounterTrade: false,
    partialCloseMultiplier: WAD,
    beforeOpened: true,
  })
  const tp = scaled(body.tp ?? 0, PRICE_DECIMALS)
  const sl = scaled(body.sl ?? 0, PRICE_DECIMALS)
  const maxSlippageP = Number(scaled(body.slippagePct, SLIPPAGE_DECIMALS))
  const approve = approveIfShort({
    token: USDC_TOKEN.address,
    spender: BASE_ADDRESSES.GtradeDiamond,
    needed: collateral,
    allowance: pair.allowance,
    label: tokenLabel(collateral, USDC_TOKEN),
    spenderName: VENUE_NAME,
  })
  const open = encodeRiskOpen({
    owner,
    pair,
    long: body.long,
    leverage,
    collateral,
    tradeType: body.tradeType,
    openPrice: orderPrice,
    tp,
    sl,
    maxSlippageP,
  })
  return engine.finish({
    owner,
    steps: [...approve.steps, open],
    watch: [USDC_TOKEN.address],
    issues: { balance: null, allowance: approve.issue },
    revertAbi: riskDiamondAbi,
    action: {
      type: 'riskOpen',
      pairIndex: pair.pairIndex,
      pair: pair.name,
      long: body.long,
      tradeType: body.tradeType,
      leverage: Number(formatUnits(leverage, LEVERAGE_DECIMALS)),
      collateral: collateral.toString(),
      positionSize: size.toString(),
      orderPrice: humanPrice(orderPrice),
      expectedOpenPrice: humanPrice(expectedOpen),
      openingFee: openingFee.toString(),
      collateralAfterFee: collateralAfterFee.toString(),
      liquidationPrice: humanPrice(liquidationPrice),
      tp: humanPrice(tp),
      sl: humanPrice(sl),
      maxSlippageP,
    },
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
