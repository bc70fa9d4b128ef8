import { type Address, encodeFunctionData } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { USDC_DECIMALS } from '../../chain/units.js'
import { InvalidInputError } from '../../errors.js'
import { approveIfShort } from '../approveIfShort.js'
import { owner } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { assertBalance, BuildRefusedError } from '../builderErrors.js'
import { tokenLabel } from '../tokenLabel.js'
import {
  type ActionOf,
  type AllowanceIssue,
  type BuilderEnvelope,
  signedAmount,
  type TxStep,
} from '../txStep.js'
import { riskDiamondAbi } from './riskAbi.js'
import {
  assertLeverageInRange,
  human,
  humanPrice,
  leverage,
  MAX_USDC,
  price,
  slippagePct,
  tpSl,
  tradeIndex,
  tradeNotFound,
  VENUE_NAME,
} from './riskFields.js'
import {
  LEVERAGE_DECIMALS,
  leverageCollateralDelta,
  PRICE_DECIMALS,
  SLIPPAGE_DECIMALS,
  scaled,
  tpSlProblem,
} from './riskMath.js'
import {
  pendingOn,
  type RiskTrade,
  type RiskTradeState,
  readRiskPair,
  readRiskTrade,
  USDC_TOKEN,
} from './riskState.js'

/** A size change comes with the price it should fill near. */
type SizeChange = { sizeDeltaUsdc?: undefined } | { sizeDeltaUsdc: number; expectedPrice: number }

export const riskModifyBody = z
  .strictObject({
    index: tradeIndex,
    owner,
    leverage: leverage
      .optional()
      .describe('New leverage of a filled trade, human, within the pair’s live max'),
    sizeDeltaUsdc: z
      .number()
      .min(-MAX_USDC, { error: `must lie within -${MAX_USDC}..${MAX_USDC} USDC.` })
      .max(MAX_USDC, { error: `must lie within -${MAX_USDC}..${MAX_USDC} USDC.` })
      .refine((v) => v !== 0, { error: 'must not be 0: positive increases, negative decreases.' })
      .optional()
      .describe('Collateral delta in human USDC at the trade’s leverage: + increase / − decrease, never 0'),
    tp: tpSl('new take-profit').optional(),
    sl: tpSl('new stop-loss').optional(),
    triggerPrice: price.optional().describe('New trigger of a resting LIMIT/STOP order, human'),
    expectedPrice: price
      .optional()
      .describe('Required with sizeDeltaUsdc: the price the size change should fill near, human'),
    slippagePct,
  })
  .refine((b) => [b.leverage, b.sizeDeltaUsdc, b.tp, b.sl, b.triggerPrice].some((v) => v !== undefined), {
    error: 'is required: pass at least one of leverage, sizeDeltaUsdc, tp, sl, triggerPrice.',
    path: ['leverage'],
  })
  .refine((b) => b.leverage === undefined || b.sizeDeltaUsdc === undefined, {
    error: 'cannot be combined with leverage: the venue queues one market change per trade at a time.',
    path: ['sizeDeltaUsdc'],
  })
  // The type guard makes the parsed body the union `SizeChange` (the JSON Schema stays the flat object).
  .refine((b): b is typeof b & SizeChange => b.sizeDeltaUsdc === undefined || b.expectedPrice !== undefined, {
    error: 'is required when sizeDeltaUsdc is set.',
    path: ['expectedPrice'],
  })

/** The modify body: with `sizeDeltaUsdc`, `expectedPrice` is a number. */
export type RiskModifyBody = z.output<typeof riskModifyBody>

export const riskModifyAction = {
  type: z.literal('riskModify'),
  index: z.number().int(),
  pairIndex: z.number().int(),
  changes: z
    .array(z.enum(['leverage', 'sizeDeltaUsdc', 'tp', 'sl', 'triggerPrice']))
    .describe('What the steps change, in step order'),
  collateralDelta: signedAmount.describe('USDC: + pulled from owner, − released; "0" for TP/SL/trigger only'),
  newLeverage: z.number().nullable().describe('After a leverage update; null otherwise'),
}

export type RiskModifyAction = ActionOf<typeof riskModifyAction>

export type RiskChange = RiskModifyAction['changes'][number]

const DIAMOND = BASE_ADDRESSES.GtradeDiamond
const call = (data: `0x${string}`, description: string): TxStep => ({
  to: DIAMOND,
  data,
  value: 0n,
  description,
})

/**
 * TP/SL as encoded (x1e10) against the trade's entry (the venue checks against the stored openPrice):
 * 422 naming the field.
 */
function checkTpSl(long: boolean, entry: bigint, tp: bigint | undefined, sl: bigint | undefined): void {
  const human = (p: bigint | undefined) => (p === undefined ? undefined : humanPrice(p))
  const problem = tpSlProblem(long, humanPrice(entry), human(tp), human(sl))
  if (problem)
    throw new BuildRefusedError('wrong_side', `${problem.field} ${problem.message}`, problem.field, {
      entry: humanPrice(entry),
    })
}

/** A resting order: one updateOpenOrder with the unchanged parts carried over. */
function modifyRestingOrder(
  body: RiskModifyBody,
  trade: RiskTrade,
): { steps: TxStep[]; changes: RiskChange[] } {
  for (const field of ['leverage', 'sizeDeltaUsdc'] as const)
    if (body[field] !== undefined)
      throw new BuildRefusedError(
        'resting_order',
        `Index ${body.index} is a resting order: only triggerPrice, tp and sl can change (cancel and place a new one for ${field}).`,
        field,
        { index: body.index },
      )
  const trigger =
    body.triggerPrice === undefined ? trade.openPrice : scaled(body.triggerPrice, PRICE_DECIMALS)
  const tp = body.tp === undefined ? trade.tp : scaled(body.tp, PRICE_DECIMALS)
  const sl = body.sl === undefined ? trade.sl : scaled(body.sl, PRICE_DECIMALS)
  // The TP/SL carried over count too: a new trigger past the order's own TP or SL is refused here.
  checkTpSl(trade.long, trigger, tp, sl)
  const maxSlippageP = Number(scaled(body.slippagePct, SLIPPAGE_DECIMALS))
  const changes = (['triggerPrice', 'tp', 'sl'] as const).filter((f) => body[f] !== undefined)
  const data = encodeFunctionData({
    abi: riskDiamondAbi,
    functionName: 'updateOpenOrder',
    args: [body.index, trigger, tp, sl, maxSlippageP],
  })
  const description = `Update resting order ${body.index}: trigger ${humanPrice(trigger)}, TP ${humanPrice(tp)}, SL ${humanPrice(sl)}`
  return { steps: [call(data, description)], changes }
}

interface OpenTradePlan {
  steps: TxStep[]
  changes: RiskChange[]
  collateralDelta: bigint
  newLeverage: bigint | null
  allowanceIssue: AllowanceIssue | null
}

/** TP/SL first (synchronous), then the one queued market change (leverage or size). */
async function modifyOpenTrade(
  engine: BuilderEngine,
  owner: Address,
  body: RiskModifyBody,
  state: RiskTradeState,
): Promise<OpenTradePlan> {
  const { trade } = state
  if (body.triggerPrice !== undefined)
    throw new BuildRefusedError(
      'not_a_resting_order',
      `Trade ${body.index} is filled: it has no trigger (set tp or sl instead).`,
      'triggerPrice',
      { index: body.index },
    )
  const scaledOrNot = (p: number | undefined) => (p === undefined ? undefined : scaled(p, PRICE_DECIMALS))
  checkTpSl(trade.long, trade.openPrice, scaledOrNot(body.tp), scaledOrNot(body.sl))
  const plan: OpenTradePlan = {
    steps: [],
    changes: [],
    collateralDelta: 0n,
    newLeverage: null,
    allowanceIssue: null,
  }
  if (body.tp !== undefined) {
    const tp = scaled(body.tp, PRICE_DECIMALS)
    const data = encodeFunctionData({ abi: riskDiamondAbi, functionName: 'updateTp', args: [body.index, tp] })
    plan.steps.push(
      call(
        data,
        tp === 0n
          ? `Remove the TP of trade ${body.index}`
          : `Set TP of trade ${body.index} to ${humanPrice(tp)}`,
      ),
    )
    plan.changes.push('tp')
  }
  if (body.sl !== undefined) {
    const sl = scaled(body.sl, PRICE_DECIMALS)
    const data = encodeFunctionData({ abi: riskDiamondAbi, functionName: 'updateSl', args: [body.index, sl] })
    plan.steps.push(
      call(
        data,
        sl === 0n
          ? `Remove the SL of trade ${body.index}`
          : `Set SL of trade ${body.index} to ${humanPrice(sl)}`,
      ),
    )
    plan.changes.push('sl')
  }
  if (body.leverage === undefined && body.sizeDeltaUsdc === undefined) return plan
  // The venue queues one market change per trade at a time (ConflictingPendingOrder).
  if (pendingOn(state.pending, body.index).length > 0)
    throw new BuildRefusedError(
      'order_pending',
      `Trade ${body.index} already has a market order waiting to be filled; retry once it is.`,
      'index',
      { index: body.index },
    )
  const pull = (amount: bigint, field: string) => {
    assertBalance(field, USDC_TOKEN, state.balance, amount)
    const approve = approveIfShort({
      token: USDC_TOKEN.address,
      spender: DIAMOND,
      needed: amount,
      allowance: state.allowance,
      label: tokenLabel(amount, USDC_TOKEN),
      spenderName: VENUE_NAME,
    })
    plan.steps.unshift(...approve.steps)
    plan.allowanceIssue = approve.issue
  }
  const leverage = BigInt(trade.leverage)
  if (body.leverage !== undefined) {
    const newLeverage = scaled(body.leverage, LEVERAGE_DECIMALS)
    if (newLeverage === leverage)
      throw new BuildRefusedError(
        'leverage_unchanged',
        `Trade ${body.index} is already at ${body.leverage}x.`,
        'leverage',
      )
    const pair = await readRiskPair(engine.chain, owner, trade.pairIndex)
    assertLeverageInRange(pair, newLeverage, 'leverage')
    const delta = leverageCollateralDelta(trade.collateralAmount, leverage, newLeverage)
    if (delta > 0n) pull(delta, 'leverage')
    const data = encodeFunctionData({
      abi: riskDiamondAbi,
      functionName: 'updateLeverage',
      args: [body.index, Number(newLeverage)],
    })
    const moves =
      delta > 0n ? `adds ${tokenLabel(delta, USDC_TOKEN)}` : `returns ${tokenLabel(-delta, USDC_TOKEN)}`
    plan.steps.push(
      call(
        data,
        `Set trade ${body.index} to ${human(newLeverage, LEVERAGE_DECIMALS)}x (${moves} collateral)`,
      ),
    )
    plan.changes.push('leverage')
    plan.collateralDelta = delta
    plan.newLeverage = newLeverage
    return plan
  }
  if (body.sizeDeltaUsdc === undefined) return plan // not reached: one of the two is set (returned above)
  const sizeDelta = body.sizeDeltaUsdc
  const expectedPrice = scaled(body.expectedPrice, PRICE_DECIMALS)
  const amount = scaled(Math.abs(sizeDelta), USDC_DECIMALS)
  if (amount === 0n)
    throw new InvalidInputError(
      'sizeDeltaUsdc',
      'body field "sizeDeltaUsdc" rounds to 0 at USDC’s 6 decimals: change the collateral by at least 0.000001 USDC.',
    )
  if (sizeDelta > 0) {
    pull(amount, 'sizeDeltaUsdc')
    const maxSlippageP = Number(scaled(body.slippagePct, SLIPPAGE_DECIMALS))
    // The added collateral at the trade's own leverage: the position grows by amount × leverage.
    const data = encodeFunctionData({
      abi: riskDiamondAbi,
      functionName: 'increasePositionSize',
      args: [body.index, amount, Number(leverage), expectedPrice, maxSlippageP],
    })
    plan.steps.push(
      call(
        data,
        `Increase trade ${body.index} by ${tokenLabel(amount, USDC_TOKEN)} collateral at ${human(leverage, LEVERAGE_DECIMALS)}x near ${humanPrice(expectedPrice)}`,
      ),
    )
    plan.collateralDelta = amount
  } else {
    if (amount >= trade.collateralAmount)
      throw new BuildRefusedError(
        'decrease_too_large',
        `sizeDeltaUsdc would remove ${tokenLabel(amount, USDC_TOKEN)} of the trade's ${tokenLabel(trade.collateralAmount, USDC_TOKEN)} collateral: close it with POST /v1/tx/risk/close instead.`,
        'sizeDeltaUsdc',
        { collateral: trade.collateralAmount.toString() },
      )
    // Collateral out at constant leverage (leverageDelta 0: the venue takes exactly one of the two).
    const data = encodeFunctionData({
      abi: riskDiamondAbi,
      functionName: 'decreasePositionSize',
      args: [body.index, amount, 0, expectedPrice],
    })
    plan.steps.push(
      call(
        data,
        `Decrease trade ${body.index} by ${tokenLabel(amount, USDC_TOKEN)} collateral near ${humanPrice(expectedPrice)}`,
      ),
    )
    plan.collateralDelta = -amount
  }
  plan.changes.push('sizeDeltaUsdc')
  return plan
}

export async function buildRiskModify(
  engine: BuilderEngine,
  body: RiskModifyBody,
): Promise<BuilderEnvelope<RiskModifyAction>> {
  const { owner } = body
  const quotedAt = engine.nowSec()
  const state = await readRiskTrade(engine.chain, owner, body.index)
  const { trade } = state
  if (!trade.isOpen) throw tradeNotFound(body.index, 'open trade or resting order')
  const plan =
    trade.tradeType === 0
      ? await modifyOpenTrade(engine, owner, body, state)
      : { ...modifyRestingOrder(body, trade), collateralDelta: 0n, newLeverage: null, allowanceIssue: null }
  return engine.finish({
    owner,
    steps: plan.steps,
    watch: [USDC_TOKEN.address],
    issues: { balance: null, allowance: plan.allowanceIssue },
    revertAbi: riskDiamondAbi,
    action: {
      type: 'riskModify',
      index: body.index,
      pairIndex: trade.pairIndex,
      changes: plan.changes,
      collateralDelta: plan.collateralDelta.toString(),
      newLeverage: plan.newLeverage === null ? null : human(plan.newLeverage, LEVERAGE_DECIMALS),
    },
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
