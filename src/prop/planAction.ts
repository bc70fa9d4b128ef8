import type { Address, PublicClient } from 'viem'
import { z } from 'zod'
import type { BuilderEngine } from '../builders/builderEngine.js'
import { buildRiskClose } from '../builders/risk/riskClose.js'
import { price } from '../builders/risk/riskFields.js'
import { buildRiskOpen, riskOpenBody } from '../builders/risk/riskOpen.js'
import type { BuilderEnvelope } from '../builders/txStep.js'
import { InvalidInputError } from '../errors.js'
import type { PropBook } from '../store/propBook.js'
import { findFill } from './gtradeOrders.js'
import { PropError } from './propErrors.js'
import { CANCELLED_ORDER } from './venueClosed.js'

/** The desk's actions: the catalog and the OpenAPI document list these. */
export const PROP_ACTIONS = ['trade.open', 'trade.close'] as const
export type PropActionId = (typeof PROP_ACTIONS)[number]

export interface PropRequest {
  actionId: PropActionId
  params: Record<string, unknown>
}

/** trade.close: the position the desk opened for the member (its positionId) and the expected exit price. */
export const tradeCloseParams = z.strictObject({
  positionId: z.number().int().positive().describe('The positionId trade.open answered'),
  expectedPrice: price.describe(
    'The price you expect the close to fill near, human (the slippage reference)',
  ),
})

interface PlanBase {
  /** What the row records of the request (the member's parameters, as parsed). */
  record: Record<string, unknown>
  build(engine: BuilderEngine): Promise<BuilderEnvelope<unknown>>
}

export type PropPlan =
  | (PlanBase & {
      kind: 'open'
      pairIndex: number
      collateralUsdc: number
      leverage: number
      notionalUsd: number
    })
  | (PlanBase & {
      kind: 'close'
      positionId: number
      /** Why the position cannot be closed now (unknown, not filled yet, closed); undefined when it can. */
      problem: PropError | undefined
    })

/**
 * Parses an action's parameters (400 naming `params.<field>`) and plans it from the desk's wallet. trade.open
 * takes the risk/open body without `owner` (the desk trades from its own wallet), MARKET only: a resting
 * order would hold the desk's capital for as long as the price stays away. trade.close takes a position the
 * desk opened for this member; its trade index is the venue's fill of that open.
 */
export async function planAction(
  request: PropRequest,
  ctx: { book: PropBook; chain: PublicClient; payer: Address; desk: Address },
): Promise<PropPlan> {
  switch (request.actionId) {
    case 'trade.open': {
      if ('owner' in request.params) {
        throw new InvalidInputError(
          'params.owner',
          'params.owner must be left out: the desk trades from its own wallet.',
        )
      }
      const body = parse(riskOpenBody, { ...request.params, owner: ctx.desk })
      if (body.tradeType !== 0) {
        throw new InvalidInputError(
          'params.tradeType',
          'params.tradeType must be 0 (MARKET): the desk opens market trades only.',
        )
      }
      return {
        kind: 'open',
        pairIndex: body.pairIndex,
        collateralUsdc: body.collateralUsdc,
        leverage: body.leverage,
        notionalUsd: body.collateralUsdc * body.leverage,
        record: request.params,
        build: (engine) => buildRiskOpen(engine, body),
      }
    }
    case 'trade.close': {
      const params = parse(tradeCloseParams, request.params)
      const located = await locate(ctx, params.positionId)
      return {
        kind: 'close',
        positionId: params.positionId,
        problem: 'problem' in located ? located.problem : undefined,
        record: params,
        build: async (engine) => {
          if ('problem' in located) throw located.problem
          return buildRiskClose(engine, {
            index: located.index,
            expectedPrice: params.expectedPrice,
            owner: ctx.desk,
          })
        },
      }
    }
    default:
      return request.actionId satisfies never
  }
}

/** The venue's trade index of the desk position `positionId` held for the payer, or why there is none. */
async function locate(
  ctx: { book: PropBook; chain: PublicClient; payer: Address; desk: Address },
  positionId: number,
): Promise<{ index: number } | { problem: PropError }> {
  const row = await ctx.book.get(positionId)
  const position = row?.result?.position as
    | { orderIndex?: number | null; openBlock?: number | null; tradeIndex?: number | null }
    | undefined
  if (
    row === undefined ||
    row.action !== 'trade.open' ||
    row.status !== 'executed' ||
    row.member.toLowerCase() !== ctx.payer.toLowerCase() ||
    position?.orderIndex == null ||
    position.openBlock == null
  ) {
    return {
      problem: new PropError(
        'prop_position_unknown',
        `No desk position ${positionId} was opened for this wallet.`,
        'params.positionId',
      ),
    }
  }
  if (await ctx.book.closing(positionId)) {
    return {
      problem: new PropError(
        'prop_position_closed',
        `Position ${positionId} is closed or closing.`,
        'params.positionId',
      ),
    }
  }
  if (position.tradeIndex === CANCELLED_ORDER) {
    return {
      problem: new PropError(
        'prop_position_closed',
        `Position ${positionId}'s market order was cancelled by the venue: it never opened.`,
        'params.positionId',
      ),
    }
  }
  const index =
    position.tradeIndex ??
    (await findFill(ctx.chain, ctx.desk, position.orderIndex, BigInt(position.openBlock)))
  if (index === undefined) {
    return {
      problem: new PropError(
        'prop_position_pending',
        `Position ${positionId}'s market order is not filled by the venue yet.`,
        'params.positionId',
        undefined,
        5,
      ),
    }
  }
  return { index }
}

/** Parses `value` with `schema`; the first issue becomes a 400 naming `params.<path>`. */
function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = ['params', ...(issue?.path ?? []).map(String)].join('.')
  throw new InvalidInputError(field, `${field} ${issue?.message ?? 'is invalid.'}`)
}
