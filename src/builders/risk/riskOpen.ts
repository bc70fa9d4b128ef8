import { type Address, encodeFunctionData, formatUnits, zeroAddress } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { atomicAmount, positive } from '../../chain/fields.js'
import { USDC_DECIMALS, WAD } from '../../chain/units.js'
import { InvalidInputError } from '../../errors.js'
import { prose } from '../../prose.js'
import { approveIfShort } from '../approveIfShort.js'
import { owner } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { assertBalance, BuildRefusedError } from '../builderErrors.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { riskDiamondAbi, USDC_COLLATERAL_INDEX } from './riskAbi.js'
import {
  assertLeverageInRange,
  human,
  humanPrice,
  leverage,
  MAX_USDC,
  positiveInt,
  price,
  slippagePct,
  tpSl,
  VENUE_NAME,
} from './riskFields.js'
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

const usdc = (what: string) =>
  positive.max(MAX_USDC, { error: `must be at most ${MAX_USDC} USDC.` }).describe(what)

const tradeType = z
  .union([z.literal(0), z.literal(1), z.literal(2)], { error: 'must be 0 (MARKET), 1 (LIMIT) or 2 (STOP).' })
  .default(0)
  .describe('0 MARKET (filled by the venue’s oracle keeper), 1 LIMIT, 2 STOP (rest until the trigger)')

/**
 * What `tradeType` decides: a MARKET order (0) fills near markPrice and takes no trigger; a LIMIT (1) or STOP
 * (2) order rests at its `triggerPrice`.
 */
type RiskOrder = { tradeType: 0; triggerPrice?: undefined } | { tradeType: 1 | 2; triggerPrice: number }

export const riskOpenBody = z
  .strictObject({
    pairIndex: positiveInt
      .max(65_535, { error: 'must fit the venue’s uint16 pair index.' })
      .describe('gTrade pair index (GET /v1/risk/pairs): 0 BTC/USD, 1 ETH/USD, …'),
    long: z.boolean().describe('true = long, false = short'),
    leverage,
    collateralUsdc: usdc('Human USDC pulled from owner as collateral (6 dp)'),
    markPrice: price.describe(
      prose`
          The pair’s current oracle price, human: GET /v1/prices perp.index (not perp.mark, which already
          includes the half spread this builder adds for expectedOpenPrice). MARKET’s slippage reference and
          the side check of triggers`,
    ),
    owner,
    tradeType,
    triggerPrice: price.optional().describe('LIMIT/STOP only: the trigger, human'),
    tp: tpSl('take-profit').optional(),
    sl: tpSl('stop-loss').optional(),
    slippagePct,
  })
  .refine((b) => b.tradeType === 0 || b.triggerPrice !== undefined, {
    error: 'is required for LIMIT (1) and STOP (2) orders.',
    path: ['triggerPrice'],
    abort: true,
  })
  // The type guard makes the parsed body the union `RiskOrder` (the JSON Schema stays the flat object).
  .refine((b): b is typeof b & RiskOrder => (b.tradeType === 0) === (b.triggerPrice === undefined), {
    error: 'is only for LIMIT (1) and STOP (2) orders; a MARKET order fills near markPrice.',
    path: ['triggerPrice'],
  })

/** The open body, a discriminated union on `tradeType`: `triggerPrice` is a number exactly when the order rests. */
export type RiskOpenBody = z.output<typeof riskOpenBody>

export const riskOpenAction = {
  type: z.literal('riskOpen'),
  pairIndex: z.number().int(),
  pair: z.string().describe('"BTC/USD"'),
  long: z.boolean(),
  tradeType: z.number().int().describe('0 MARKET, 1 LIMIT, 2 STOP'),
  leverage: z.number().describe('As encoded (x1e3 back to human)'),
  collateral: atomicAmount.describe('USDC pulled from owner'),
  positionSize: atomicAmount.describe('USDC: collateral × leverage'),
  orderPrice: z.number().describe('The Trade’s openPrice: markPrice (MARKET) or triggerPrice'),
  expectedOpenPrice: z
    .number()
    .describe('MARKET: markPrice + half the pair spread against the trader; LIMIT/STOP: the trigger'),
  openingFee: atomicAmount.describe('USDC the venue deducts from the collateral at the fill'),
  collateralAfterFee: atomicAmount.describe('USDC collateral of the filled trade'),
  liquidationPrice: z
    .number()
    .describe('The venue’s getTradeLiquidationPrice at expectedOpenPrice with collateralAfterFee'),
  tp: z.number().describe('0 = none'),
  sl: z.number().describe('0 = none'),
  maxSlippageP: z.number().int().describe('slippagePct x1e3, as encoded'),
}

export type RiskOpenAction = ActionOf<typeof riskOpenAction>

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
  const trigger = body.tradeType === 0 ? mark : encodedPrice(body.triggerPrice)
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
  const { owner } = body
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
  const orderPrice = body.tradeType === 0 ? mark : scaled(body.triggerPrice, PRICE_DECIMALS)
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
