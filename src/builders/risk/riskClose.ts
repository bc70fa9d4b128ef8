import { encodeFunctionData } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { atomicAmount } from '../../chain/fields.js'
import { CHAIN_UPSTREAM } from '../../chain/multiRead.js'
import { owner } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { BuildRefusedError } from '../builderErrors.js'
import { type ActionOf, type BuilderEnvelope, signedAmount, type TxStep } from '../txStep.js'
import { MARKET_CLOSE_ORDER, riskDiamondAbi } from './riskAbi.js'
import { human, humanPrice, price, tradeIndex, tradeNotFound } from './riskFields.js'
import { closeEstimate, fillPrice, LEVERAGE_DECIMALS, PRICE_DECIMALS, scaled } from './riskMath.js'
import { pendingOn, readRiskPair, readRiskTrade } from './riskState.js'

export const riskCloseBody = z.strictObject({
  index: tradeIndex,
  expectedPrice: price.describe(
    'The price you expect the close to fill near, human (the slippage reference)',
  ),
  owner,
})

export type RiskCloseBody = z.output<typeof riskCloseBody>

export const riskCloseAction = {
  type: z.literal('riskClose'),
  index: z.number().int(),
  pairIndex: z.number().int(),
  pair: z.string(),
  long: z.boolean(),
  leverage: z.number(),
  collateral: atomicAmount.describe('USDC collateral in the trade'),
  openPrice: z.number(),
  expectedExitPrice: z.number().describe('expectedPrice − half the spread for a long (+ for a short)'),
  expectedPnl: signedAmount.describe('Signed USDC at expectedExitPrice, before holding fees'),
  closingFee: atomicAmount.describe('USDC'),
  expectedPayout: atomicAmount.describe('USDC returned: collateral + expectedPnl − closingFee'),
}

export type RiskCloseAction = ActionOf<typeof riskCloseAction>

/** Pure: closeTradeMarket(index, expectedPrice x1e10). */
export function encodeRiskClose(p: { index: number; expectedPrice: bigint; pair: string }): TxStep {
  return {
    to: BASE_ADDRESSES.GtradeDiamond,
    data: encodeFunctionData({
      abi: riskDiamondAbi,
      functionName: 'closeTradeMarket',
      args: [p.index, p.expectedPrice],
    }),
    value: 0n,
    description: `Market-close ${p.pair} trade ${p.index} near ${humanPrice(p.expectedPrice)}`,
  }
}

export async function buildRiskClose(
  engine: BuilderEngine,
  body: RiskCloseBody,
): Promise<BuilderEnvelope<RiskCloseAction>> {
  const { owner } = body
  const quotedAt = engine.nowSec()
  const { trade, pending } = await readRiskTrade(engine.chain, owner, body.index)
  if (!trade.isOpen) throw tradeNotFound(body.index, 'open trade')
  if (trade.tradeType !== 0)
    throw new BuildRefusedError(
      'resting_order',
      `Index ${body.index} is a resting ${trade.tradeType === 1 ? 'LIMIT' : 'STOP'} order, not a filled trade: cancel it with POST /v1/tx/risk/cancel.`,
      'index',
      { index: body.index },
    )
  if (pendingOn(pending, body.index).some((o) => o.orderType === MARKET_CLOSE_ORDER))
    throw new BuildRefusedError(
      'close_pending',
      `Trade ${body.index} already has a market close waiting to be filled.`,
      'index',
      { index: body.index },
    )
  // The trade names its pair: the pair's spread and fee are a second read.
  const pair = await readRiskPair(engine.chain, owner, trade.pairIndex)
  const expectedPrice = scaled(body.expectedPrice, PRICE_DECIMALS)
  const exit = fillPrice(expectedPrice, pair.spreadP, trade.long, false)
  const t = {
    collateral: trade.collateralAmount,
    leverage: BigInt(trade.leverage),
    openPrice: trade.openPrice,
    long: trade.long,
  }
  const estimate = closeEstimate(t, exit, pair.feeP)
  return engine.finish({
    owner,
    steps: [encodeRiskClose({ index: body.index, expectedPrice, pair: pair.name })],
    watch: [BASE_ADDRESSES.USDC],
    // Nothing leaves the owner's wallet in this bundle: any token that would is refused (assertOutflows).
    outflows: { mayLeave: [], mayApprove: [], source: CHAIN_UPSTREAM },
    issues: { balance: null, allowance: null },
    revertAbi: riskDiamondAbi,
    action: {
      type: 'riskClose',
      index: body.index,
      pairIndex: trade.pairIndex,
      pair: pair.name,
      long: trade.long,
      leverage: human(t.leverage, LEVERAGE_DECIMALS),
      collateral: t.collateral.toString(),
      openPrice: humanPrice(t.openPrice),
      expectedExitPrice: humanPrice(exit),
      expectedPnl: estimate.pnl.toString(),
      closingFee: estimate.closingFee.toString(),
      expectedPayout: estimate.value.toString(),
    },
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
