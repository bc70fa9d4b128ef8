import { encodeFunctionData } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { atomicAmount } from '../../chain/fields.js'
import { CHAIN_UPSTREAM } from '../../chain/multiRead.js'
import { owner } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { BuildRefusedError } from '../builderErrors.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { riskDiamondAbi } from './riskAbi.js'
import { humanPrice, tradeIndex } from './riskFields.js'
import { readRiskTrade, USDC_TOKEN } from './riskState.js'

export const riskCancelBody = z.strictObject({ index: tradeIndex, owner })

export type RiskCancelBody = z.output<typeof riskCancelBody>

export const riskCancelAction = {
  type: z.literal('riskCancel'),
  index: z.number().int(),
  pairIndex: z.number().int(),
  orderType: z.enum(['limit', 'stop']),
  triggerPrice: z.number(),
  refund: atomicAmount.describe('USDC returned to owner'),
}

export type RiskCancelAction = ActionOf<typeof riskCancelAction>

/** Pure: cancelOpenOrder(index). */
export function encodeRiskCancel(p: { index: number; refund: bigint }): TxStep {
  return {
    to: BASE_ADDRESSES.GtradeDiamond,
    data: encodeFunctionData({ abi: riskDiamondAbi, functionName: 'cancelOpenOrder', args: [p.index] }),
    value: 0n,
    description: `Cancel resting order ${p.index}; its ${tokenLabel(p.refund, USDC_TOKEN)} returns`,
  }
}

export async function buildRiskCancel(
  engine: BuilderEngine,
  body: RiskCancelBody,
): Promise<BuilderEnvelope<RiskCancelAction>> {
  const { owner } = body
  const quotedAt = engine.nowSec()
  const { trade } = await readRiskTrade(engine.chain, owner, body.index)
  // Resting LIMIT/STOP orders are trades of tradeType 1/2 until triggered.
  if (!trade.isOpen || trade.tradeType === 0)
    throw new BuildRefusedError(
      'order_not_found',
      `The owner has no resting LIMIT or STOP order at index ` +
        `${body.index}${trade.isOpen ? ' (it is a filled trade: close it with POST /v1/tx/risk/close)' : ''} ` +
        `(GET /v1/pending-orders/{address} lists them).`,
      'index',
      { index: body.index },
    )
  const refund = trade.collateralAmount
  return engine.finish({
    owner,
    steps: [encodeRiskCancel({ index: body.index, refund })],
    watch: [USDC_TOKEN.address],
    // Nothing leaves the owner's wallet in this bundle: any token that would is refused (assertOutflows).
    outflows: { mayLeave: [], mayApprove: [], source: CHAIN_UPSTREAM },
    issues: { balance: null, allowance: null },
    revertAbi: riskDiamondAbi,
    action: {
      type: 'riskCancel',
      index: body.index,
      pairIndex: trade.pairIndex,
      orderType: trade.tradeType === 1 ? 'limit' : 'stop',
      triggerPrice: humanPrice(trade.openPrice),
      refund: refund.toString(),
    },
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
